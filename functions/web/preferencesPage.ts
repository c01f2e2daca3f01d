import { DEFAULT_LINK_TTL_MS, revokedByEpoch, type ClaimsFor } from '../domain/linkClaims';
import { MAIL_CATEGORIES, ONE_CLICK_CATEGORIES, type MailCategory } from '../domain/mailCategory';
import type { MailboxNotices } from '../services/preferences/mailboxNotice';
import { LINK_PATHS } from '../links/actionLinks';
import type { LinkMinter } from '../links/linkMinter';
import type { LinkReader } from '../links/linkReader';
import type { Log } from '../shared/observability';
import type { AccountsRepository } from '../store/accountsRepository';
import type { AlertStateRepository } from '../store/alertStateRepository';
import { recipientKey } from '../domain/recipientSnoozes';
import type { PreferencesRepository } from '../store/preferencesRepository';
import type { TokenRepository } from '../store/tokenRepository';
import type { CsrfTokens } from './csrfToken';
import { channelPreferencesPage, channelSnoozePage, type ChannelControlsPageDeps, type ChannelPageView } from './channelControlsPage';
import { formProblem as checkForm, linkProblem } from './pageChecks';
import type { WebRequest } from './webRequest';

/** The ports of the unsubscribe, preferences and snooze pages. */
export interface PreferencesPageDeps {
  /**
   * Reads links with public keys; mints only the two it mails the mailbox itself (a new preferences
   * link, a security-off confirmation): never a revoke, snooze or unsubscribe link.
   */
  readonly links: Pick<LinkReader, 'read'> & Pick<LinkMinter<'preferences' | 'security-off'>, 'build'>;
  /** Mails the mailbox itself: the security-off confirmation, its notice, a new preferences link. */
  readonly mailbox: MailboxNotices;
  readonly csrf: CsrfTokens;
  /** `PUBLIC_BASE_URL`: its origin is the only one a form POST may come from. */
  readonly publicBaseUrl: string;
  /** Per-address mail categories; this page never writes `suppressions` (stopping all mail). */
  readonly preferences: Pick<PreferencesRepository, 'get' | 'optOut' | 'setOptOuts' | 'claimLinkMail'>;
  /** A snooze is the clicking recipient's own: read and conditionally rewrite the account's `recipient-snoozes` item. */
  readonly alerts: Pick<AlertStateRepository, 'snoozeRecipient'> & ChannelControlsPageDeps['alerts'];
  /** The snoozed account's label, zone and recipients (one `GetItem`). */
  readonly accounts: Pick<AccountsRepository, 'get'>;
  /** A chat link's channel (one `GetItem`): its link epoch. */
  readonly channels: ChannelControlsPageDeps['channels'];
  /** Snooze tokens only (the table's `snooze#` items): this page never touches a revoke token. */
  readonly tokens: SnoozeTokens;
  /** The account's alert history: a snooze set here is recorded there (`alert#` items only). */
  readonly history: ChannelControlsPageDeps['history'];
  readonly now: () => number;
  readonly log: Log;
}

/** What the page may do with tokens: consume and release snooze tokens, nothing else. */
export interface SnoozeTokens {
  consume(tokenId: string, use: { purpose: 'snooze'; account: string; expiresAt: number }): ReturnType<TokenRepository['consume']>;
  release(tokenId: string, purpose: 'snooze'): Promise<void>;
}

/**
 * Why the preferences form is shown again: saved; turning security notices off needs the
 * confirmation box; or (box ticked) the rest was saved and the mailbox was sent a link that turns
 * them off (`security-confirmation-sent`), or could not be (`security-confirmation-failed`).
 */
export type PreferencesNotice = 'saved' | 'confirm-security' | 'security-confirmation-sent' | 'security-confirmation-failed' | null;

/** Least time between two new preferences links mailed to one address from the page. */
export const LINK_MAIL_GAP_MS = 10 * 60_000;

/** Every page of `/unsubscribe`, `/preferences` and `/snooze` (rendered by `functions/web/preferencesViews.ts`). */
export type PreferencesPageView =
  | { kind: 'unsubscribe-confirm'; email: string; categories: readonly MailCategory[]; token: string; csrf: string }
  | { kind: 'unsubscribed'; email: string; categories: readonly MailCategory[]; oneClick: boolean }
  | { kind: 'preferences'; email: string; optOuts: readonly MailCategory[]; token: string; csrf: string; notice: PreferencesNotice }
  /** A preferences link past its week, or voided by the recipient's link epoch: offers to mail a new one. */
  | { kind: 'link-renew'; reason: 'expired' | 'revoked'; token: string; csrf: string }
  /** A new link was mailed, or one was mailed in the last minutes (`recent`) and nothing more went out. */
  | { kind: 'link-mailed'; recent: boolean }
  | { kind: 'security-off-confirm'; email: string; token: string; csrf: string }
  | { kind: 'security-off-done'; email: string }
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
  | { kind: 'method-not-allowed' }
  /** A chat's Snooze and Preferences pages (`channelControlsPage.ts`). */
  | ChannelPageView;

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
 * the only authority: the only POST accepted without `Origin`, `Referer` or `Sec-Fetch-Site`);
 * unsubscribing is idempotent. `/preferences` shows and changes every category; turning security
 * notices off there only mails the mailbox a confirmation link (a `security-off` token, also
 * opened at `/preferences`), and the mailbox is told once they are off. Preferences links last a
 * week and die with the recipient's link epoch; their page then offers to mail a new one. A snooze link
 * works once and snoozes the account's drawdown alerts for the recipient it was sent to only; a
 * link from before links named their recipient snoozes nothing (`snooze-outdated`). A chat's
 * Snooze and Preferences links (signed for `channel-snooze` and `channel-preferences`) open the
 * same paths and act on their channel only (`channelControlsPage.ts`).
 */
export async function preferencesPage(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const path = request.path.replace(/\/+$/, '');
  const isGet = request.method === 'GET' || request.method === 'HEAD';
  if (!isGet && request.method !== 'POST') return { kind: 'method-not-allowed' };
  if (path.endsWith(LINK_PATHS.unsubscribe)) return isGet ? showUnsubscribe(deps, request) : unsubscribe(deps, request);
  if (path.endsWith(LINK_PATHS.snooze)) return (await channelSnoozePage(deps, request, isGet)) ?? (isGet ? showSnooze(deps, request) : snooze(deps, request));
  if (path.endsWith(LINK_PATHS.preferences))
    return (await channelPreferencesPage(deps, request, isGet)) ?? (isGet ? showPreferences(deps, request) : postPreferences(deps, request));
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
  };
}

/** What an unsubscribe link stops: its category; a link from before categories, all but security. */
function stoppedBy(category: MailCategory | undefined): MailCategory[] {
  return category === undefined ? [...ONE_CLICK_CATEGORIES] : [category];
}

function preferencesUrl(deps: PreferencesPageDeps, claims: { account: `0x${string}`; email: string }): string {
  return deps.links.build({ purpose: 'preferences', account: claims.account, email: claims.email }, deps.now());
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
  return { kind: 'unsubscribed', email: link.claims.email, categories, oneClick };
}

type PreferencesRead =
  | { kind: 'preferences'; claims: ClaimsFor<'preferences'>; optOuts: MailCategory[] }
  | { kind: 'security-off'; claims: ClaimsFor<'security-off'>; optOuts: MailCategory[] }
  | { kind: 'renew'; view: PreferencesPageView }
  | { kind: 'problem'; view: PreferencesPageView };

/**
 * Reads a token given to `/preferences`: a preferences link, or a security-off confirmation (told
 * apart by their keys), checked against the recipient's link epoch. An expired or voided
 * preferences link becomes the page offering a new one.
 */
async function readPreferencesToken(deps: PreferencesPageDeps, token: string | undefined): Promise<PreferencesRead> {
  const now = deps.now();
  const prefs = deps.links.read('preferences', token, now);
  if (prefs.kind === 'invalid') {
    const off = deps.links.read('security-off', token, now);
    if (off.kind === 'invalid') return { kind: 'problem', view: { kind: 'link-invalid', reason: prefs.reason } };
    if (off.kind === 'expired') return { kind: 'problem', view: { kind: 'link-expired', expiredAt: off.expiredAt } };
    const stored = await deps.preferences.get(off.claims.email);
    if (revokedByEpoch(off.claims, stored.linksRevokedAt)) return { kind: 'problem', view: { kind: 'link-invalid', reason: 'the link was revoked' } };
    return { kind: 'security-off', claims: off.claims, optOuts: stored.optOuts };
  }
  const renew = (reason: 'expired' | 'revoked', tokenId: string): PreferencesRead => ({
    kind: 'renew',
    view: { kind: 'link-renew', reason, token: token ?? '', csrf: deps.csrf.issue('new-link', tokenId) },
  });
  if (prefs.kind === 'expired') return renew('expired', prefs.claims.tokenId);
  const stored = await deps.preferences.get(prefs.claims.email);
  if (revokedByEpoch(prefs.claims, stored.linksRevokedAt)) return renew('revoked', prefs.claims.tokenId);
  return { kind: 'preferences', claims: prefs.claims, optOuts: stored.optOuts };
}

async function showPreferences(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const token = request.query.get('token') ?? undefined;
  const read = await readPreferencesToken(deps, token);
  if (read.kind === 'renew' || read.kind === 'problem') return read.view;
  if (read.kind === 'security-off')
    return { kind: 'security-off-confirm', email: read.claims.email, token: token ?? '', csrf: deps.csrf.issue('security-off', read.claims.tokenId) };
  return {
    kind: 'preferences',
    email: read.claims.email,
    optOuts: read.optOuts,
    token: token ?? '',
    csrf: deps.csrf.issue('preferences', read.claims.tokenId),
    notice: null,
  };
}

async function postPreferences(deps: PreferencesPageDeps, request: WebRequest): Promise<PreferencesPageView> {
  const refused = formProblem(deps, request);
  if (refused) return refused;
  const fields = request.form.kind === 'form' ? request.form.fields : new URLSearchParams();
  const token = fields.get('token') ?? undefined;
  if (fields.get('action') === 'new-link') return mailNewLink(deps, token, fields.get('csrf'));
  const read = await readPreferencesToken(deps, token);
  if (read.kind === 'problem') return read.view;
  if (read.kind === 'renew') return read.view;
  if (read.kind === 'security-off') return turnSecurityOff(deps, read.claims, read.optOuts, fields.get('csrf'));
  const { email, tokenId } = read.claims;
  if (!deps.csrf.verify('preferences', tokenId, fields.get('csrf'))) return { kind: 'forbidden', reason: 'the form is missing or altered' };
  const receive = new Set(fields.getAll('receive'));
  const wanted = MAIL_CATEGORIES.filter((category) => !receive.has(category));
  const view = { kind: 'preferences' as const, email, token: token ?? '', csrf: deps.csrf.issue('preferences', tokenId) };
  const turningSecurityOff = wanted.includes('security') && !read.optOuts.includes('security');
  if (!turningSecurityOff) {
    await deps.preferences.setOptOuts(email, wanted);
    deps.log.info('preferences saved', { account: read.claims.account, optOuts: wanted.join(',') });
    return { ...view, optOuts: wanted, notice: 'saved' };
  }
  // Security notices stay on unless the warning box is ticked, and even then only the mailbox can turn them off.
  if (fields.get('confirm-security-off') !== 'yes') return { ...view, optOuts: read.optOuts, notice: 'confirm-security' };
  const saved = wanted.filter((category) => category !== 'security');
  await deps.preferences.setOptOuts(email, saved);
  const now = deps.now();
  const confirmUrl = deps.links.build({ purpose: 'security-off', account: read.claims.account, email }, now);
  const sent = await deps.mailbox.send({
    kind: 'security-off-request',
    account: read.claims.account,
    email,
    confirmUrl,
    expiresAt: now + DEFAULT_LINK_TTL_MS['security-off'],
  });
  deps.log.info('security notices off requested', { account: read.claims.account, optOuts: saved.join(','), mailed: sent.kind });
  return { ...view, optOuts: saved, notice: sent.kind === 'sent' ? 'security-confirmation-sent' : 'security-confirmation-failed' };
}

/** The security-off confirmation's POST: turns security notices off (idempotent) and tells the mailbox once. */
async function turnSecurityOff(
  deps: PreferencesPageDeps,
  claims: ClaimsFor<'security-off'>,
  optOuts: readonly MailCategory[],
  csrf: string | null,
): Promise<PreferencesPageView> {
  if (!deps.csrf.verify('security-off', claims.tokenId, csrf)) return { kind: 'forbidden', reason: 'the form is missing or altered' };
  if (optOuts.includes('security')) return { kind: 'security-off-done', email: claims.email };
  await deps.preferences.optOut(claims.email, ['security']);
  const sent = await deps.mailbox.send({
    kind: 'security-off',
    account: claims.account,
    email: claims.email,
    preferencesUrl: preferencesUrl(deps, claims),
    by: 'page',
  });
  deps.log.info('security notices turned off', { account: claims.account, told: sent.kind });
  return { kind: 'security-off-done', email: claims.email };
}

/**
 * Mails a new preferences link to the address an expired or voided (but authentic) preferences
 * link names: the mailbox gets it, never the requester. At most one per `LINK_MAIL_GAP_MS`.
 */
async function mailNewLink(deps: PreferencesPageDeps, token: string | undefined, csrf: string | null): Promise<PreferencesPageView> {
  const now = deps.now();
  const link = deps.links.read('preferences', token, now);
  if (link.kind === 'invalid') return { kind: 'link-invalid', reason: link.reason };
  const claims = link.claims;
  if (!deps.csrf.verify('new-link', claims.tokenId, csrf)) return { kind: 'forbidden', reason: 'the form is missing or altered' };
  if (!(await deps.preferences.claimLinkMail(claims.email, LINK_MAIL_GAP_MS))) return { kind: 'link-mailed', recent: true };
  const sent = await deps.mailbox.send({
    kind: 'preferences-link',
    account: claims.account,
    email: claims.email,
    preferencesUrl: preferencesUrl(deps, claims),
    expiresAt: now + DEFAULT_LINK_TTL_MS.preferences,
  });
  deps.log.info('preferences link mailed', { account: claims.account, mailed: sent.kind });
  return { kind: 'link-mailed', recent: false };
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
  await deps.history.recordAlerts(claims.account, [{ kind: 'snoozed', scope: { kind: 'recipient', email }, by: `${email} (email link)`, until, at: now }]);
  deps.log.info('recipient snoozed', { account: claims.account, hours: claims.snoozeHours });
  return { kind: 'snoozed', account, email, until };
}

/** The account a snooze link names, when it is tracked and `email` is still one of its recipients. */
async function snoozedAccount(deps: PreferencesPageDeps, address: string, email: string): Promise<SnoozedAccount | null> {
  const account = await deps.accounts.get(address);
  if (!account?.emails.some((e) => recipientKey(e) === recipientKey(email))) return null;
  return { address: account.address, label: account.label, timeZone: account.timezone };
}

function formProblem(deps: PreferencesPageDeps, request: WebRequest): PreferencesPageView | null {
  return checkForm(request, deps.publicBaseUrl);
}
