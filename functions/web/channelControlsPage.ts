import type { AccountHistoryRepository } from '../store/accountHistoryRepository';
import { voidedChannelLink, type VoidedChannelLink } from '../domain/channelLinkEpoch';
import { ONE_CLICK_CATEGORIES, type OneClickCategory } from '../domain/mailCategory';
import type { ClaimsFor } from '../domain/linkClaims';
import type { ActionLinks } from '../links/actionLinks';
import type { Log } from '../shared/observability';
import type { AccountsRepository } from '../store/accountsRepository';
import type { AlertStateRepository } from '../store/alertStateRepository';
import type { ChannelsRepository } from '../store/channelsRepository';
import type { TokenRepository } from '../store/tokenRepository';
import type { CsrfTokens } from './csrfToken';
import { formProblem, linkProblem, type LinkProblem, type RefusedRequest } from './pageChecks';
import type { WebRequest } from './webRequest';

/** The ports of a chat's Snooze and Preferences pages (served at `/snooze` and `/preferences`). */
export interface ChannelControlsPageDeps {
  readonly links: Pick<ActionLinks, 'read'>;
  readonly csrf: CsrfTokens;
  readonly publicBaseUrl: string;
  /** The account's `channel-controls` item: read, and rewritten conditionally. */
  readonly alerts: Pick<AlertStateRepository, 'channelControls' | 'snoozeChannel' | 'setChannelMutes'>;
  readonly accounts: Pick<AccountsRepository, 'get'>;
  /** The link's channel (one item read): its creation and link epoch void older links. */
  readonly channels: Pick<ChannelsRepository, 'get'>;
  /** Snooze tokens (`snooze#` items): a chat's snooze link works once, like a recipient's. */
  readonly tokens: {
    consume(tokenId: string, use: { purpose: 'snooze'; account: string; expiresAt: number }): ReturnType<TokenRepository['consume']>;
    release(tokenId: string, purpose: 'snooze'): Promise<void>;
  };
  /** The account's alert history: a snooze set from a chat is recorded there. */
  readonly history: Pick<AccountHistoryRepository, 'recordAlerts'>;
  readonly now: () => number;
  readonly log: Log;
}

/** The account a chat page names. */
export interface ChannelAccount {
  readonly address: string;
  readonly label: string | null;
  readonly timeZone: string;
}

/** The pages of a chat's buttons. */
export type ChannelPageView =
  | { kind: 'channel-snooze-confirm'; account: ChannelAccount; channel: string; hours: number; token: string; csrf: string }
  | { kind: 'channel-snoozed'; account: ChannelAccount; channel: string; until: number }
  | { kind: 'channel-preferences'; account: ChannelAccount; channel: string; muted: readonly OneClickCategory[]; token: string; csrf: string; saved: boolean }
  /** The account the link names is no longer tracked: nothing to change. */
  | { kind: 'channel-account-gone' }
  /** Not past its expiry, but voided by its channel: removed (or made anew), or its links revoked. */
  | { kind: 'channel-link-void'; channel: string; reason: VoidedChannelLink }
  | { kind: 'link-used'; consumedAt: number }
  | LinkProblem
  | RefusedRequest;

const HOUR_MS = 3_600_000;

/** A token given to `/snooze` or `/preferences`, told apart from a recipient's by its signature: `null` when it is not a chat's. */
function tokenOf(fields: URLSearchParams | null, request: WebRequest): string | undefined {
  return (fields?.get('token') ?? request.query.get('token')) || undefined;
}

/**
 * A chat's Snooze link (`channel-snooze`): GET shows what it would do and changes nothing; the
 * POST (same origin, the form's CSRF value) consumes the link once and snoozes the account's
 * drawdown alerts in that channel only. Returns `null` when the token is not a chat's snooze
 * link (the recipient's snooze page handles it).
 */
export async function channelSnoozePage(deps: ChannelControlsPageDeps, request: WebRequest, isGet: boolean): Promise<ChannelPageView | null> {
  const now = deps.now();
  const opened = await openChannelLink(deps, request, isGet, 'channel-snooze', now);
  if (opened === null || opened.kind !== 'open') return opened;
  const { claims, account, token, fields } = opened;
  if (isGet)
    return {
      kind: 'channel-snooze-confirm',
      account,
      channel: claims.channel,
      hours: claims.snoozeHours,
      token,
      csrf: deps.csrf.issue('channel-snooze', claims.tokenId),
    };
  if (!deps.csrf.verify('channel-snooze', claims.tokenId, fields?.get('csrf'))) return { kind: 'forbidden', reason: 'the form is missing or altered' };
  const consumed = await deps.tokens.consume(claims.tokenId, { purpose: 'snooze', account: claims.account, expiresAt: claims.expiresAt });
  if (consumed.kind === 'already-used') return { kind: 'link-used', consumedAt: consumed.consumedAt };
  let until: number;
  try {
    until = await deps.alerts.snoozeChannel(claims.account, claims.channel, now + claims.snoozeHours * HOUR_MS, now);
  } catch (error) {
    await deps.tokens.release(claims.tokenId, 'snooze');
    throw error;
  }
  await deps.history.recordAlerts(claims.account, [
    { kind: 'snoozed', scope: { kind: 'channel', name: claims.channel }, by: `a member of channel ${claims.channel} (chat button)`, until, at: now },
  ]);
  deps.log.info('channel snoozed', { account: claims.account, channel: claims.channel, hours: claims.snoozeHours });
  return { kind: 'channel-snoozed', account, channel: claims.channel, until };
}

/**
 * A chat's Preferences link (`channel-preferences`, a week, reusable): GET shows the categories
 * the channel takes for the account and changes nothing; the POST (same origin, CSRF) mutes or
 * unmutes drawdown, expiry and report notices there. Security notices cannot be muted from a
 * chat link (only `sentinel channels update --categories`). `null` when the token is not a chat's.
 */
export async function channelPreferencesPage(deps: ChannelControlsPageDeps, request: WebRequest, isGet: boolean): Promise<ChannelPageView | null> {
  const opened = await openChannelLink(deps, request, isGet, 'channel-preferences', deps.now());
  if (opened === null || opened.kind !== 'open') return opened;
  const { claims, account, token, fields } = opened;
  const view = {
    kind: 'channel-preferences' as const,
    account,
    channel: claims.channel,
    token,
    csrf: deps.csrf.issue('channel-preferences', claims.tokenId),
  };
  if (isGet) {
    const controls = await deps.alerts.channelControls(claims.account);
    return { ...view, muted: controls.mutes[claims.channel] ?? [], saved: false };
  }
  if (!deps.csrf.verify('channel-preferences', claims.tokenId, fields?.get('csrf'))) return { kind: 'forbidden', reason: 'the form is missing or altered' };
  const receive = new Set(fields?.getAll('receive') ?? []);
  const muted = ONE_CLICK_CATEGORIES.filter((category) => !receive.has(category));
  await deps.alerts.setChannelMutes(claims.account, claims.channel, muted);
  deps.log.info('channel preferences saved', { account: claims.account, channel: claims.channel, muted: muted.join(',') });
  return { ...view, muted, saved: true };
}

/** The void-link page when the link's channel voided it (checked on GET and POST alike), else `null`. */
async function voidedBy(deps: ChannelControlsPageDeps, claims: { channel: string; issuedAt?: number | undefined }): Promise<ChannelPageView | null> {
  const reason = voidedChannelLink(claims, await deps.channels.get(claims.channel));
  return reason === null ? null : { kind: 'channel-link-void', channel: claims.channel, reason };
}

/** A chat's link that opens its page: what it claims, the account it names, its token and the posted fields. */
interface OpenedLink<P extends ChannelLinkPurpose> {
  readonly kind: 'open';
  readonly claims: ClaimsFor<P>;
  readonly account: ChannelAccount;
  readonly token: string;
  readonly fields: URLSearchParams | null;
}

type ChannelLinkPurpose = 'channel-snooze' | 'channel-preferences';

/**
 * What both chat pages check first: the link (`null` when the token is not a chat's), a POST's
 * origin, the link's expiry, and the account it names. Returns the link opened, or the page to
 * answer at once.
 */
async function openChannelLink<P extends ChannelLinkPurpose>(
  deps: ChannelControlsPageDeps,
  request: WebRequest,
  isGet: boolean,
  purpose: P,
  now: number,
): Promise<OpenedLink<P> | ChannelPageView | null> {
  const fields = request.form.kind === 'form' ? request.form.fields : null;
  const token = tokenOf(isGet ? null : fields, request);
  const link = deps.links.read(purpose, token, now);
  if (link.kind === 'invalid') return null;
  if (!isGet) {
    const refused = formProblem(request, deps.publicBaseUrl);
    if (refused) return refused;
  }
  if (link.kind === 'expired') return linkProblem(link);
  const named: ClaimsFor<ChannelLinkPurpose> = link.claims;
  const voided = await voidedBy(deps, named);
  if (voided) return voided;
  const account = await trackedAccount(deps, named.account);
  if (!account) return { kind: 'channel-account-gone' };
  return { kind: 'open', claims: link.claims, account, token: token ?? '', fields };
}

async function trackedAccount(deps: ChannelControlsPageDeps, address: string): Promise<ChannelAccount | null> {
  const account = await deps.accounts.get(address);
  return account ? { address: account.address, label: account.label, timeZone: account.timezone } : null;
}
