import * as z from 'zod';
import { DEFAULT_LINK_TTL_MS } from '../../domain/linkClaims';
import { normalEmail } from '../../domain/deskScope';
import type { LinkMinter } from '../../links/linkMinter';
import type { Log } from '../../shared/observability';
import type { DeskRateRepository } from '../../store/deskRateRepository';
import { mayUseDesk, type DeskScopeDeps } from './deskViewer';
import type { SignInMail } from './signInMail';

/** How many sign-in emails may be asked for in one window: per address, and per client address. */
export const SIGN_IN_LIMITS = { perAddress: 5, perClient: 20, windowMs: 15 * 60_000 } as const;

/** What asking for a sign-in link needs. */
export interface SignInRequestDeps extends DeskScopeDeps {
  readonly rates: Pick<DeskRateRepository, 'hit'>;
  readonly links: Pick<LinkMinter<'desk-sign-in'>, 'build'>;
  readonly mail: SignInMail;
  readonly log: Log;
  readonly now: () => number;
  /**
   * The least time the answer takes (ms), so a recipient (a link is minted and mailed) and a
   * stranger (nothing is) answer alike in time as in words; 0 in tests.
   */
  readonly answerFloorMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

/** The outcome of a request, as its page may tell it: nothing about whether the address receives anything. */
export type SignInRequestOutcome = { kind: 'requested' } | { kind: 'invalid-email' } | { kind: 'too-many' };

/**
 * Asks for a sign-in link for `email` from `client` (its network address): when the client is
 * under its limit and the address under its own, and the address receives reports or is an
 * operator, a 15-minute single-use link is mailed to it (carrying `next`, the desk page it returns to). Every valid request answers `requested`
 * (over-limit addresses and strangers included) after at least `answerFloorMs`; only a client over
 * its own limit is told `too-many`.
 */
export async function requestSignIn(deps: SignInRequestDeps, request: { email: string; client: string; next?: string }): Promise<SignInRequestOutcome> {
  const started = deps.now();
  const parsed = z.email().safeParse(request.email.trim());
  if (!parsed.success) return { kind: 'invalid-email' };
  const email = normalEmail(parsed.data);
  if ((await deps.rates.hit('client', request.client, SIGN_IN_LIMITS.windowMs, started)) > SIGN_IN_LIMITS.perClient) return { kind: 'too-many' };
  const underAddressLimit = (await deps.rates.hit('address', email, SIGN_IN_LIMITS.windowMs, started)) <= SIGN_IN_LIMITS.perAddress;
  if (underAddressLimit && (await mayUseDesk(deps, email))) {
    const now = deps.now();
    const link = deps.links.build({ purpose: 'desk-sign-in', email, ...(request.next !== undefined ? { next: request.next } : {}) }, now);
    const sent = await deps.mail(email, link, now + DEFAULT_LINK_TTL_MS['desk-sign-in']);
    if (sent.kind === 'failed') deps.log.warn('desk sign-in email not sent', { reason: sent.reason });
  }
  const waited = deps.now() - started;
  if (waited < deps.answerFloorMs) await deps.sleep(deps.answerFloorMs - waited);
  return { kind: 'requested' };
}
