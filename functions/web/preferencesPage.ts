import { MAIL_CATEGORIES, ONE_CLICK_CATEGORIES, type MailCategory } from '../domain/mailCategory';
import { LINK_PATHS, type ActionLinks } from '../links/actionLinks';
import type { Log } from '../shared/observability';
import type { AccountsRepository } from '../store/accountsRepository';
import type { AlertStateRepository } from '../store/alertStateRepository';
import { recipientKey } from '../domain/recipientSnoozes';
import type { PreferencesRepository } from '../store/preferencesRepository';
import type { TokenRepository } from '../store/tokenRepository';
import type { CsrfTokens } from './csrfToken';
import { checkSameOrigin } from './sameOrigin';
import type { WebRequest } from './webRequest';

/** The ports of the unsubscribe, preferences and snooze pages. */
export interface PreferencesPageDeps {
  readonly links: Pick<ActionLinks, 'read' | 'build'>;
  readonly csrf: CsrfTokens;
  /** `PUBLIC_BASE_URL`: its origin is the only one a form POST may come from. */
  readonly publicBaseUrl: string;
  /** Per-address mail categories; this page never writes `suppressions` (stopping all mail). */
  readonly preferences: Pick<PreferencesRepository, 'optOuts' | 'optOut' | 'setOptOuts'>;
  /** A snooze is the clicking recipient's own: read and conditionally rewrite the account's `recipient-snoozes` item. */
  readonly alerts: Pick<AlertStateRepository, 'snoozeRecipient'>;
  /** The snoozed account's label, zone and recipients (one `GetItem`). */
  readonly accounts: Pick<AccountsRepository, 'get'>;
  /** Snooze tokens only (the table's `snooze#` items): this page never touches a revoke token. */
  readonly tokens: SnoozeTokens;
  readonly now: () => number;
  readonly log: Log;
}

/** What the page may do with tokens: consume and release snooze tokens, nothing else. */
export interface SnoozeTokens {
  consume(tokenId: string, use: { purpose: 'snooze'; account: string; expiresAt: number }): ReturnType<TokenRepository['consume']>;
  release(tokenId: string, purpose: 'snooze'): Promise<void>;
}

/** Why the preferences form is shown again: saved, or turning security notices off needs the confirmation box. */
export type PreferencesNotice = 'saved' | 'confirm-security' | null;

/** Every page of `/unsubscribe`, `/preferences` and `/snooze` (rendered by `functions/web/preferencesViews.ts`). */
export type PreferencesPageView =
  | { kind: 'unsubscribe-confirm'; email: string; categories: readonly MailCategory[]; token: string; csrf: string; preferencesUrl: string }
  | { kind: 'unsubscribed'; email: string; categories: readonly MailCategory[]; oneClick: boolean; preferencesUrl: string }
  | { kind: 'preferences'; email: string; optOuts: readonly MailCategory[]; token: string; csrf: string; notice: PreferencesNotice }
  | { kind: 'snooze-confirm'; account: SnoozedAccount; email: string; hours: number; token: string; csrf: string }
  | { kind: 'snoozed'; account: SnoozedAccount; email: string; until: number }
  /** A snooze link from before links named their recipient: it snoozes nothing. */
  | { kind: 'snooze-outdated' }
  /** The account is no longer tracked, or the link's address no longer gets its alerts. */
  | { kind: 'snooze-not-recipient'; email: string }
  | { kind: 'link-expired'; expiredAt: number }
  | { kind: 'link-used'; consumedAt: number }
  | { kind: 'link-invalid'; reason: string }
  | { kind: 'forbidden'; reason: string }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed' };

/** What a snooze page names: the account's label (or address) and the zone its times are shown in. */
export interface SnoozedAccount {
  readonly address: string;
  readonly label: string | null;
  readonly timeZone: string;
}

const HOUR_MS = 3_600_000;

/**
 * `/unsubscribe`, `/preferences` and `/snooze`. GET shows a page and changes nothing. A POST from
 * a page's form must be same-origin and carry the form's anti-CSRF value. `/unsubscribe` stops
 * the one category its link names (never security notices) and also takes RFC 8058 one-click
 * POSTs from mail providers (body `List-Unsubscribe=One-Click`, the signed token in the URL being
 * the only authority); unsubscribing is idempotent. `/preferences` shows and changes every
 * category; turning security notices off there needs an explicit confirmation. A snooze link
 * works once and snoozes the account's drawdown alerts for the recipient it was sent to only; a
 * link from before links named their recipient snoozes nothing (`snooze-outdated`).
 */
export async function preferencesPage(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const path = request.path.replace(/\/+$/, '');
  const isGet = request.method === 'GET' || request.method === 'HEAD';
  if (!isGet && request.method !== 'POST') return { kind: 'method-not-allowed' };
  if (path.endsWith(LINK_PATHS.unsubscribe)) return isGet ? showUnsubscribe(deps, request) : unsubscribe(deps, request);
  if (path.endsWith(LINK_PATHS.snooze)) return isGet ? showSnooze(deps, request) : snooze(deps, request);
  if (path.endsWith(LINK_PATHS.preferences)) return isGet ? showPreferences(deps, request) : savePreferences(deps, request);
  return { kind: 'not-found' };
}

function showUnsubscribe(deps: PreferencesPageDeps, request: WebRequest): PreferencesPageView {
  const token = request.query.get('token') ?? undefined;
  const link = deps.links.read('unsubscribe', token, deps.now());
  if (link.kind !== 'valid') return linkProblem(link);
  const { email, tokenId } = link.claims;
  return {
    kind: 'unsubscribe-confirm',
    email,
    categories: stoppedBy(link.claims.category),
    token: token ?? '',
    csrf: deps.csrf.issue('unsubscribe', tokenId),
    preferencesUrl: preferencesUrl(deps, link.claims),
  };
}

/** What an unsubscribe link stops: its category; a link from before categories, all but security. */
function stoppedBy(category: MailCategory | undefined): MailCategory[] {
  return category === undefined ? [...ONE_CLICK_CATEGORIES] : [category];
}

function preferencesUrl(deps: PreferencesPageDeps, claims: { account: string; email: string }): string {
  return deps.links.build({ purpose: 'preferences', account: claims.account as `0x${string}`, email: claims.email }, deps.now());
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
  const categories = stoppedBy(link.claims.category);
  await deps.preferences.optOut(link.claims.email, categories);
  deps.log.info('unsubscribed', { account: link.claims.account, categories: categories.join(','), oneClick });
  return { kind: 'unsubscribed', email: link.claims.email, categories, oneClick, preferencesUrl: preferencesUrl(deps, link.claims) };
}

async function showPreferences(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const token = request.query.get('token') ?? undefined;
  const link = deps.links.read('preferences', token, deps.now());
  if (link.kind !== 'valid') return linkProblem(link);
  const optOuts = await deps.preferences.optOuts(link.claims.email);
  return { kind: 'preferences', email: link.claims.email, optOuts, token: token ?? '', csrf: deps.csrf.issue('preferences', link.claims.tokenId), notice: null };
}

async function savePreferences(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const refused = formProblem(deps, request);
  if (refused) return refused;
  const fields = request.form.kind === 'form' ? request.form.fields : new URLSearchParams();
  const token = fields.get('token') ?? undefined;
  const link = deps.links.read('preferences', token, deps.now());
  if (link.kind !== 'valid') return linkProblem(link);
  const { email, tokenId } = link.claims;
  if (!deps.csrf.verify('preferences', tokenId, fields.get('csrf'))) return { kind: 'forbidden', reason: 'the form is missing or altered' };
  const receive = new Set(fields.getAll('receive'));
  const optOuts = MAIL_CATEGORIES.filter((category) => !receive.has(category));
  const view = { kind: 'preferences' as const, email, optOuts, token: token ?? '', csrf: deps.csrf.issue('preferences', tokenId) };
  if (optOuts.includes('security') && fields.get('confirm-security-off') !== 'yes') {
    const current = await deps.preferences.optOuts(email);
    // Security notices stay on unless they were already off or the warning box is ticked.
    if (!current.includes('security')) return { ...view, notice: 'confirm-security' };
  }
  await deps.preferences.setOptOuts(email, optOuts);
  deps.log.info('preferences saved', { account: link.claims.account, optOuts: optOuts.join(',') });
  return { ...view, notice: 'saved' };
}

async function showSnooze(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const token = request.query.get('token') ?? undefined;
  const link = deps.links.read('snooze', token, deps.now());
  if (link.kind !== 'valid') return linkProblem(link);
  const { snoozeHours, tokenId, email } = link.claims;
  if (email === undefined) return { kind: 'snooze-outdated' };
  const account = await snoozedAccount(deps, link.claims.account, email);
  if (!account) return { kind: 'snooze-not-recipient', email };
  return { kind: 'snooze-confirm', account, email, hours: snoozeHours, token: token ?? '', csrf: deps.csrf.issue('snooze', tokenId) };
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
  const email = claims.email;
  if (email === undefined) return { kind: 'snooze-outdated' };
  const account = await snoozedAccount(deps, claims.account, email);
  if (!account) return { kind: 'snooze-not-recipient', email };
  const consumed = await deps.tokens.consume(claims.tokenId, { purpose: 'snooze', account: claims.account, expiresAt: claims.expiresAt });
  if (consumed.kind === 'already-used') return { kind: 'link-used', consumedAt: consumed.consumedAt };
  let until: number;
  try {
    until = await deps.alerts.snoozeRecipient(claims.account, email, now + claims.snoozeHours * HOUR_MS, now);
  } catch (error) {
    await deps.tokens.release(claims.tokenId, 'snooze');
    throw error;
  }
  deps.log.info('recipient snoozed', { account: claims.account, hours: claims.snoozeHours });
  return { kind: 'snoozed', account, email, until };
}

/** The account a snooze link names, when it is tracked and `email` is still one of its recipients. */
async function snoozedAccount(deps: PreferencesPageDeps, address: string, email: string): Promise<SnoozedAccount | null> {
  const account = await deps.accounts.get(address);
  if (!account?.emails.some((e) => recipientKey(e) === recipientKey(email))) return null;
  return { address: account.address, label: account.label, timeZone: account.timezone };
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
