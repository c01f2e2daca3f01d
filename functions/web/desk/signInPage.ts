import type { LinkReader } from '../../links/linkReader';
import type { Log } from '../../shared/observability';
import type { DeskSignInRepository } from '../../store/deskSignInRepository';
import { mayUseDesk, type DeskScopeDeps } from '../../services/desk/deskViewer';
import { openSession, type DeskSessionStores } from '../../services/desk/deskSessions';
import { requestSignIn, type SignInRequestDeps } from '../../services/desk/requestSignIn';
import { revokedByEpoch } from '../../domain/linkClaims';
import { relyingPartyOf } from '../../services/desk/passkeys';
import type { CsrfTokens } from '../csrfToken';
import { formProblem } from '../pageChecks';
import type { WebRequest } from '../webRequest';
import { DESK_PATHS, deskUrl, signInReturn } from './deskPaths';
import { newSessionSecret, sessionKeyOf, setCookieHeader, type SessionCookie } from './sessionCookie';
import type { SignInNotice, SignInView } from './signInViews';

/** What the sign-in page needs: reading its links, checking its forms, opening sessions, and asking for links. */
export interface SignInPageDeps extends DeskScopeDeps, Omit<SignInRequestDeps, keyof DeskScopeDeps> {
  readonly reader: Pick<LinkReader, 'read'>;
  readonly csrf: CsrfTokens;
  readonly publicBaseUrl: string;
  readonly stores: DeskSessionStores;
  readonly signIns: Pick<DeskSignInRepository, 'consume' | 'usedAt'>;
  /** Whether the passkey client is served (passkeys are offered where the host is a domain name, too). */
  readonly passkeys: boolean;
  readonly log: Log;
}

/** A sign-in page's answer: one of its views, or the redirect into the desk with the new session's cookie. */
export type SignInOutcome =
  SignInView | { kind: 'redirect'; location: string; setCookie?: string } | { kind: 'forbidden'; reason: string } | { kind: 'bad-request'; reason: string };

const FORM_NOTICES: ReadonlySet<string> = new Set<SignInNotice>(['signed-out', 'signed-out-everywhere', 'session-ended', 'no-access']);

/**
 * `/desk/sign-in`. `GET` without a token: the form asking for an address (and the passkey button);
 * `GET ?token=`: the link's page with its one button, changing nothing (mail scanners open links);
 * a link already used says so, and when, as the revoke page does.
 * `POST` with `email`: asks for a link (rate-limited; the same answer whoever asks). `POST` with
 * `token`: checks the origin, the link, the form's anti-CSRF value, the recipient's sessions epoch
 * and that the address may still use the desk, consumes the link once, opens a session and
 * redirects with its cookie to the page the sign-in was asked from (`next`, carried by the form and
 * the link; a desk page only, see `signInReturn`), or the overview.
 */
export async function signInPage(
  deps: SignInPageDeps,
  request: WebRequest,
  cookie: SessionCookie,
  /** Who this browser is signed in as now (read only when a link is shown); `null` for no one. */
  signedInAs: () => Promise<string | null>,
): Promise<SignInOutcome> {
  if (request.method === 'GET' || request.method === 'HEAD') {
    const token = request.query.get('token');
    if (token === null) {
      const notice = request.query.get('notice');
      return {
        kind: 'sign-in-form',
        notice: notice !== null && FORM_NOTICES.has(notice) ? (notice as SignInNotice) : null,
        email: '',
        passkeys: offered(deps),
        next: signInReturn(request.query.get('next')),
      };
    }
    return showLink(deps, token, signedInAs);
  }
  const problem = formProblem(request, deps.publicBaseUrl);
  if (problem) return problem;
  if (request.form.kind !== 'form') return { kind: 'bad-request', reason: 'the form is empty' };
  const fields = request.form.fields;
  const token = fields.get('token');
  if (token !== null) return useLink(deps, token, fields.get('csrf'), cookie);
  const email = fields.get('email');
  if (email === null) return { kind: 'bad-request', reason: 'the form names no address' };
  const next = signInReturn(fields.get('next'));
  const outcome = await requestSignIn(deps, { email, client: request.sourceIp ?? 'unknown', ...(next ? { next } : {}) });
  if (outcome.kind === 'invalid-email') return { kind: 'sign-in-form', notice: 'invalid-email', email: email.slice(0, 254), passkeys: offered(deps), next };
  return outcome.kind === 'too-many' ? { kind: 'too-many' } : { kind: 'sign-in-sent' };
}

/** Whether the sign-in page offers a passkey: its client is served and the host is one a passkey can be made for. */
function offered(deps: Pick<SignInPageDeps, 'passkeys' | 'publicBaseUrl'>): boolean {
  return deps.passkeys && relyingPartyOf(deps.publicBaseUrl) !== null;
}

type Checked = { kind: 'valid'; email: string; tokenId: string; expiresAt: number; next: string | null } | SignInView;

async function checkLink(deps: SignInPageDeps, token: string): Promise<Checked> {
  const link = deps.reader.read('desk-sign-in', token, deps.now());
  if (link.kind === 'invalid') return { kind: 'link-invalid', reason: link.reason };
  if (link.kind === 'expired') return { kind: 'link-expired' };
  const { sessionsRevokedAt } = await deps.stores.recipients.get(link.claims.email);
  if (revokedByEpoch(link.claims, sessionsRevokedAt)) return { kind: 'link-revoked' };
  return { kind: 'valid', email: link.claims.email, tokenId: link.claims.tokenId, expiresAt: link.claims.expiresAt, next: signInReturn(link.claims.next) };
}

async function showLink(deps: SignInPageDeps, token: string, signedInAs: () => Promise<string | null>): Promise<SignInOutcome> {
  const checked = await checkLink(deps, token);
  if (checked.kind !== 'valid') return checked;
  const usedAt = await deps.signIns.usedAt(checked.tokenId);
  if (usedAt !== null) return { kind: 'link-used', usedAt };
  return {
    kind: 'sign-in-confirm',
    email: checked.email,
    token,
    csrf: deps.csrf.issue('desk-sign-in', checked.tokenId),
    expiresAt: checked.expiresAt,
    signedInAs: await signedInAs(),
  };
}

async function useLink(deps: SignInPageDeps, token: string, csrf: string | null, cookie: SessionCookie): Promise<SignInOutcome> {
  const checked = await checkLink(deps, token);
  if (checked.kind !== 'valid') return checked;
  if (!deps.csrf.verify('desk-sign-in', checked.tokenId, csrf)) return { kind: 'forbidden', reason: 'the sign-in form is missing or altered' };
  if (!(await mayUseDesk(deps, checked.email))) return { kind: 'sign-in-form', notice: 'no-access', email: '', passkeys: offered(deps), next: null };
  const consumed = await deps.signIns.consume(checked.tokenId, checked.expiresAt);
  if (consumed.kind === 'already-used') return { kind: 'link-used', usedAt: consumed.usedAt };
  const secret = newSessionSecret();
  const maxAge = await openSession(deps.stores, sessionKeyOf(secret), checked.email, 'email-link', deps.now());
  deps.log.info('desk session opened', { via: 'email-link' });
  return { kind: 'redirect', location: deskUrl(deps.publicBaseUrl, checked.next ?? DESK_PATHS.overview), setCookie: setCookieHeader(cookie, secret, maxAge) };
}
