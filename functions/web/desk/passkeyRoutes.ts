import * as z from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { mayUseDesk, type DeskScopeDeps } from '../../services/desk/deskViewer';
import { openSession, type DeskSessionStores } from '../../services/desk/deskSessions';
import type { DeskRateRepository } from '../../store/deskRateRepository';
import type { Log } from '../../shared/observability';
import {
  authenticationOptions,
  registrationOptions,
  relyingPartyOf,
  verifyAuthentication,
  verifyRegistration,
  type PasskeyDeps,
} from '../../services/desk/passkeys';
import { SIGN_IN_LIMITS } from '../../services/desk/requestSignIn';
import { formProblem } from '../pageChecks';
import type { WebRequest } from '../webRequest';
import { DESK_PATHS, deskUrl, signInReturn } from './deskPaths';
import type { DeskView } from './deskView';
import { newSessionSecret, sessionKeyOf, setCookieHeader, type SessionCookie } from './sessionCookie';

/** The passkey API's paths (all POST, form-encoded, answering JSON). */
export const PASSKEY_API = {
  signInOptions: `${DESK_PATHS.api}/passkeys/sign-in/options`,
  signInVerify: `${DESK_PATHS.api}/passkeys/sign-in/verify`,
  registerOptions: `${DESK_PATHS.api}/passkeys/register/options`,
  registerVerify: `${DESK_PATHS.api}/passkeys/register/verify`,
} as const;

/** What a credential's answer must look like before it is handed to the verifier (which checks the rest). */
const credentialAnswer = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,1400}$/),
  rawId: z.string().max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(4_000) }),
});

/** What the passkey routes need of the desk's deps. */
export interface PasskeyRouteDeps extends DeskScopeDeps {
  readonly publicBaseUrl: string;
  /** Whether the passkey client is served. */
  readonly passkeys: boolean;
  readonly passkeyStore: { readonly challenges: PasskeyDeps['challenges']; readonly passkeys: PasskeyDeps['passkeys'] };
  readonly stores: DeskSessionStores;
  readonly rates: Pick<DeskRateRepository, 'hit'>;
  readonly now: () => number;
  readonly log: Log;
}

function json(status: number, body: unknown, setCookie?: string): DeskView {
  return { kind: 'json', status, body, ...(setCookie === undefined ? {} : { setCookie }) };
}

/** The passkey deps of the desk, or `null` where passkeys are not offered (no client, or a host that is an IP address). */
export function passkeyDepsOf(deps: PasskeyRouteDeps): PasskeyDeps | null {
  const rp = relyingPartyOf(deps.publicBaseUrl);
  if (!rp || !deps.passkeys) return null;
  return { rp, challenges: deps.passkeyStore.challenges, passkeys: deps.passkeyStore.passkeys, recipients: deps.stores.recipients, now: deps.now };
}

function answerOf<T>(request: WebRequest): { challengeId: string; response: T } | null {
  if (request.form.kind !== 'form') return null;
  const challengeId = request.form.fields.get('challengeId');
  const payload = request.form.fields.get('payload');
  if (challengeId === null || payload === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  return credentialAnswer.safeParse(parsed).success ? { challengeId, response: parsed as T } : null;
}

/**
 * Signing in with a passkey, before any session: `POST …/sign-in/options` (rate-limited per
 * client, as asking for a link is) and `POST …/sign-in/verify`, which opens a session for the
 * recipient whose passkey signed, when it may still use the desk, and answers where to go with the
 * session's cookie: the desk page the sign-in page was asked from (`next`), or the overview.
 */
export async function passkeySignIn(deps: PasskeyRouteDeps, request: WebRequest, path: string, cookie: SessionCookie): Promise<DeskView> {
  const passkeys = passkeyDepsOf(deps);
  if (!passkeys || request.method !== 'POST') return json(404, { error: 'not found' });
  const problem = formProblem(request, deps.publicBaseUrl);
  if (problem?.kind === 'forbidden') return json(403, { error: 'the request must come from this site' });
  if (path === PASSKEY_API.signInOptions) {
    if ((await deps.rates.hit('passkey-client', request.sourceIp ?? 'unknown', SIGN_IN_LIMITS.windowMs, deps.now())) > SIGN_IN_LIMITS.perClient) {
      return json(429, { error: 'too many sign-in attempts from your network; wait a few minutes' });
    }
    return json(200, await authenticationOptions(passkeys));
  }
  const answer = answerOf<AuthenticationResponseJSON>(request);
  if (!answer) return json(400, { error: 'the answer could not be read' });
  const outcome = await verifyAuthentication(passkeys, answer);
  if (outcome.kind === 'refused') return json(403, { error: outcome.reason });
  if (!(await mayUseDesk(deps, outcome.email))) return json(403, { error: 'this address receives no account any more' });
  const secret = newSessionSecret();
  const maxAge = await openSession(deps.stores, sessionKeyOf(secret), outcome.email, 'passkey', deps.now());
  deps.log.info('desk session opened', { via: 'passkey' });
  const next = request.form.kind === 'form' ? signInReturn(request.form.fields.get('next')) : null;
  return json(200, { redirect: deskUrl(deps.publicBaseUrl, next ?? DESK_PATHS.overview) }, setCookieHeader(cookie, secret, maxAge));
}

/** Registering a passkey for the signed-in `email` (the caller checked origin and anti-CSRF value). */
export async function passkeyRegistration(deps: PasskeyRouteDeps, request: WebRequest, path: string, email: string): Promise<DeskView> {
  const passkeys = passkeyDepsOf(deps);
  if (!passkeys) return json(404, { error: 'passkeys are not offered here' });
  if (path === PASSKEY_API.registerOptions) return json(200, await registrationOptions(passkeys, email));
  const answer = answerOf<RegistrationResponseJSON>(request);
  if (!answer) return json(400, { error: 'the answer could not be read' });
  const name = request.form.kind === 'form' ? (request.form.fields.get('name') ?? '') : '';
  const outcome = await verifyRegistration(passkeys, email, { ...answer, name });
  if (outcome.kind === 'refused') return json(400, { error: outcome.reason });
  deps.log.info('passkey registered');
  return json(200, { registered: outcome.passkey.name });
}
