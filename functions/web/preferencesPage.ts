import { LINK_PATHS, type ActionLinks } from '../links/actionLinks';
import type { Log } from '../shared/observability';
import type { AlertStateRepository } from '../store/alertStateRepository';
import type { SuppressionRepository } from '../store/suppressionRepository';
import type { TokenRepository } from '../store/tokenRepository';
import type { CsrfTokens } from './csrfToken';
import { checkSameOrigin } from './sameOrigin';
import type { WebRequest } from './webRequest';

/** The ports of the unsubscribe and snooze pages. */
export interface PreferencesPageDeps {
  readonly links: Pick<ActionLinks, 'read'>;
  readonly csrf: CsrfTokens;
  /** `PUBLIC_BASE_URL`: its origin is the only one a form POST may come from. */
  readonly publicBaseUrl: string;
  readonly suppressions: Pick<SuppressionRepository, 'suppress'>;
  readonly alerts: Pick<AlertStateRepository, 'snooze'>;
  readonly tokens: Pick<TokenRepository, 'consume' | 'release'>;
  readonly now: () => number;
  readonly log: Log;
}

/** Every page of `/unsubscribe` and `/snooze` (rendered by `functions/web/preferencesViews.ts`). */
export type PreferencesPageView =
  | { kind: 'unsubscribe-confirm'; email: string; token: string; csrf: string }
  | { kind: 'unsubscribed'; email: string; oneClick: boolean }
  | { kind: 'snooze-confirm'; account: string; hours: number; token: string; csrf: string }
  | { kind: 'snoozed'; account: string; until: number }
  | { kind: 'link-expired'; expiredAt: number }
  | { kind: 'link-used'; consumedAt: number }
  | { kind: 'link-invalid'; reason: string }
  | { kind: 'forbidden'; reason: string }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed' };

const HOUR_MS = 3_600_000;

/**
 * `/unsubscribe` and `/snooze`. GET shows a page with a button and changes nothing. A POST from
 * the page's form must be same-origin and carry the form's anti-CSRF value. `/unsubscribe` also
 * takes RFC 8058 one-click POSTs from mail providers (body `List-Unsubscribe=One-Click`, the
 * signed token in the URL being the only authority); unsubscribing is idempotent. A snooze link
 * works once.
 */
export async function preferencesPage(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const path = request.path.replace(/\/+$/, '');
  const isGet = request.method === 'GET' || request.method === 'HEAD';
  if (!isGet && request.method !== 'POST') return { kind: 'method-not-allowed' };
  if (path.endsWith(LINK_PATHS.unsubscribe)) return isGet ? showUnsubscribe(deps, request) : unsubscribe(deps, request);
  if (path.endsWith(LINK_PATHS.snooze)) return isGet ? showSnooze(deps, request) : snooze(deps, request);
  return { kind: 'not-found' };
}

function showUnsubscribe(deps: PreferencesPageDeps, request: WebRequest): PreferencesPageView {
  const token = request.query.get('token') ?? undefined;
  const link = deps.links.read('unsubscribe', token, deps.now());
  if (link.kind !== 'valid') return linkProblem(link);
  return { kind: 'unsubscribe-confirm', email: link.claims.email, token: token ?? '', csrf: deps.csrf.issue('unsubscribe', link.claims.tokenId) };
}

async function unsubscribe(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const fields = request.form.kind === 'form' ? request.form.fields : new URLSearchParams();
  const oneClick = fields.get('List-Unsubscribe') === 'One-Click';
  if (!oneClick) {
    const refused = formProblem(deps, request);
    if (refused) return refused;
  }
  const token = fields.get('token') ?? request.query.get('token') ?? undefined;
  const link = deps.links.read('unsubscribe', token, deps.now());
  if (link.kind !== 'valid') return linkProblem(link);
  if (!oneClick && !deps.csrf.verify('unsubscribe', link.claims.tokenId, fields.get('csrf'))) {
    return { kind: 'forbidden', reason: 'the form is missing or altered' };
  }
  await deps.suppressions.suppress(link.claims.email, 'unsubscribe');
  deps.log.info('unsubscribed', { account: link.claims.account, oneClick });
  return { kind: 'unsubscribed', email: link.claims.email, oneClick };
}

function showSnooze(deps: PreferencesPageDeps, request: WebRequest): PreferencesPageView {
  const token = request.query.get('token') ?? undefined;
  const link = deps.links.read('snooze', token, deps.now());
  if (link.kind !== 'valid') return linkProblem(link);
  const { account, snoozeHours, tokenId } = link.claims;
  return { kind: 'snooze-confirm', account, hours: snoozeHours, token: token ?? '', csrf: deps.csrf.issue('snooze', tokenId) };
}

async function snooze(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const refused = formProblem(deps, request);
  if (refused) return refused;
  const fields = request.form.kind === 'form' ? request.form.fields : new URLSearchParams();
  const now = deps.now();
  const link = deps.links.read('snooze', fields.get('token') ?? undefined, now);
  if (link.kind !== 'valid') return linkProblem(link);
  const claims = link.claims;
  if (!deps.csrf.verify('snooze', claims.tokenId, fields.get('csrf'))) return { kind: 'forbidden', reason: 'the form is missing or altered' };
  const consumed = await deps.tokens.consume(claims.tokenId, { purpose: 'snooze', account: claims.account, expiresAt: claims.expiresAt });
  if (consumed.kind === 'already-used') return { kind: 'link-used', consumedAt: consumed.consumedAt };
  const until = now + claims.snoozeHours * HOUR_MS;
  try {
    await deps.alerts.snooze(claims.account, until);
  } catch (error) {
    await deps.tokens.release(claims.tokenId, 'snooze');
    throw error;
  }
  deps.log.info('snoozed', { account: claims.account, hours: claims.snoozeHours });
  return { kind: 'snoozed', account: claims.account, until };
}

/** Why a form POST is refused before its link is looked at, or null when it may proceed. */
function formProblem(deps: PreferencesPageDeps, request: WebRequest): PreferencesPageView | null {
  const origin = checkSameOrigin({ origin: request.header('origin'), secFetchSite: request.header('sec-fetch-site') }, deps.publicBaseUrl);
  if (origin.kind === 'cross-origin') return { kind: 'forbidden', reason: origin.reason };
  if (request.form.kind === 'unsupported') return { kind: 'bad-request', reason: request.form.reason };
  if (request.form.kind === 'none') return { kind: 'bad-request', reason: 'the form is empty' };
  return null;
}

function linkProblem(link: { kind: 'expired'; expiredAt: number } | { kind: 'invalid'; reason: string }): PreferencesPageView {
  return link.kind === 'expired' ? { kind: 'link-expired', expiredAt: link.expiredAt } : { kind: 'link-invalid', reason: link.reason };
}
