import { channelDefinition } from '../channels/channelRegistry';
import type { ChannelRecord } from '../domain/channel';
import { channelTakes, type ChannelControls } from '../domain/channelControls';
import { routedChannels } from '../domain/channelRouting';
import { noRecipientReason, type MailCategory } from '../domain/mailCategory';
import type { NoticeType } from '../domain/notice';
import { normalEmail } from '../domain/deskScope';
import { isRecipientSnoozed, recipientKey, type RecipientSnoozes } from '../domain/recipientSnoozes';
import type { NoticeAddressing } from './noticeAddressing';
import type { LeftOutRecipient } from './leftOutRecipient';
import type { AlertStateRepository } from '../store/alertStateRepository';
import type { ChannelsRepository } from '../store/channelsRepository';
import type { DeskOperatorsRepository } from '../store/deskOperatorsRepository';
import type { PreferencesRepository } from '../store/preferencesRepository';
import type { SuppressionRepository } from '../store/suppressionRepository';

/** The stores that decide who gets mail. */
export interface RecipientStores {
  readonly suppressions: Pick<SuppressionRepository, 'filter'>;
  readonly preferences: Pick<PreferencesRepository, 'filter'>;
}

/** What deciding which channels take a notice reads. */
export interface ChannelRoutingPorts {
  readonly channels: Pick<ChannelsRepository, 'list'>;
  /** Each account's channel controls (snoozes and mutes from a chat's buttons): one `GetItem` per account with a routed channel. */
  readonly alerts: Pick<AlertStateRepository, 'channelControls'>;
}

/** Who the operators are: `OPERATOR_EMAIL` and those marked with `sentinel desk operators add`. */
export interface OperatorPorts {
  /** `OPERATOR_EMAIL`; `null` when unset. */
  readonly operatorEmail: string | null;
  /** The marked operators (one consistent `GetItem`); absent: `OPERATOR_EMAIL` alone. */
  readonly operators?: Pick<DeskOperatorsRepository, 'list'> | undefined;
}

/**
 * Who gets an operator's notice (a result the breaker stopped, a bounced security recipient,
 * missed reports), each once: `OPERATOR_EMAIL` first, then the marked operators, in their order.
 * Empty: nobody to tell (the caller logs instead).
 */
export async function operatorAudience(ports: OperatorPorts): Promise<string[]> {
  const marked = ports.operators === undefined ? [] : await ports.operators.list();
  const all = [...(ports.operatorEmail === null ? [] : [ports.operatorEmail]), ...marked];
  return all.filter((email, i) => all.findIndex((e) => normalEmail(e) === normalEmail(email)) === i);
}

/** Whether `email` is an operator: `OPERATOR_EMAIL` (the list is not read then) or marked. */
export async function isOperator(ports: OperatorPorts, email: string): Promise<boolean> {
  const normal = normalEmail(email);
  if (ports.operatorEmail !== null && normalEmail(ports.operatorEmail) === normal) return true;
  return (await operatorAudience(ports)).some((e) => normalEmail(e) === normal);
}

/**
 * Who a notice is addressed to before anyone opts out (`mailAudience` comes next): the account's
 * recipients; one of them alone for a snooze of their own alerts (none when it is no longer one);
 * the account's recipients and the operators for a result the breaker stopped.
 */
export async function noticeAddressees(emails: readonly string[], addressing: NoticeAddressing | undefined, ports: OperatorPorts): Promise<string[]> {
  if (addressing === undefined) return [...emails];
  if (addressing.kind === 'recipient') return emails.filter((e) => normalEmail(e) === normalEmail(addressing.email));
  const all = [...emails, ...(await operatorAudience(ports))];
  return all.filter((email, i) => all.findIndex((e) => normalEmail(e) === normalEmail(email)) === i);
}

/** Who gets one mail of a notice: the recipients, or why no one does; and who was left out and why (in the order addressed). */
export type MailAudience = (
  { readonly kind: 'recipients'; readonly recipients: readonly [string, ...string[]] } | { readonly kind: 'none'; readonly reason: string }
) & { readonly leftOut: readonly LeftOutRecipient[] };

function someone(recipients: readonly string[], reason: string, leftOut: readonly LeftOutRecipient[]): MailAudience {
  const [first, ...rest] = recipients;
  return first === undefined ? { kind: 'none', reason, leftOut } : { kind: 'recipients', recipients: [first, ...rest], leftOut };
}

/**
 * Who gets mail of `category` among `emails`: each once (compared case-insensitively, first
 * spelling kept), minus those suppressed (bounce, complaint, an unsubscribe from before categories)
 * and those that opted out of `category`, and (with `snoozes`) minus those whose own snooze of the
 * account's drawdown alerts runs at `now` (the alert machine never sees those snoozes). Each one
 * left out is listed in `leftOut` with the first reason that stopped it (no further read).
 */
export async function mailAudience(
  stores: RecipientStores,
  emails: readonly string[],
  category: MailCategory,
  snoozes?: { readonly read: () => Promise<RecipientSnoozes>; readonly now: number },
): Promise<MailAudience> {
  const seen = new Set<string>();
  const unique = emails.filter((email) => {
    const key = email.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const allowed = unique.length === 0 ? [] : await stores.suppressions.filter(unique);
  const reachable = allowed.length === 0 ? [] : await stores.preferences.filter(allowed, category);
  const leftOut: LeftOutRecipient[] = [
    ...without(unique, allowed).map((email) => ({ email, reason: { kind: 'suppressed' as const } })),
    ...without(allowed, reachable).map((email) => ({ email, reason: { kind: 'opted-out' as const, category } })),
  ];
  if (reachable.length === 0 || snoozes === undefined) return someone(reachable, noRecipientReason(category), leftOut);
  const snoozed = await snoozes.read();
  const awake = reachable.filter((email) => !isRecipientSnoozed(snoozed, email, snoozes.now));
  const asleep = without(reachable, awake).map((email) => ({
    email,
    reason: { kind: 'snoozed' as const, until: snoozed[recipientKey(email)] ?? snoozes.now },
  }));
  return someone(awake, 'every recipient snoozed these alerts', [...leftOut, ...asleep]);
}

/** The addresses of `all` missing from `kept` (compared as deliveries key them). */
function without(all: readonly string[], kept: readonly string[]): string[] {
  const keep = new Set(kept.map(recipientKey));
  return all.filter((email) => !keep.has(recipientKey(email)));
}

/** A channel, and the accounts (of those asked) whose notice it takes now. */
export interface ChannelTaking {
  readonly channel: ChannelRecord;
  readonly accounts: readonly string[];
}

/** The kind of notice a channel is asked to take. */
export interface TakenNotice {
  readonly type: NoticeType;
  readonly category: MailCategory;
}

/**
 * The channels that take a notice of `type` and `category` about some of `accounts` at `now`:
 * routed to the account in that category, of a type that takes the category at all (a pager takes
 * no report), and not muted (or snoozed) for that account by the chat's buttons. Each with the
 * accounts it takes, in the order given; one entry per channel however many accounts it takes.
 */
export async function channelAudience(ports: ChannelRoutingPorts, accounts: readonly string[], notice: TakenNotice, now: number): Promise<ChannelTaking[]> {
  const channels = (await ports.channels.list()).filter((c) => channelDefinition(c.type).limits.takes(notice.category));
  if (channels.length === 0) return [];
  const controls = new Map<string, ChannelControls>();
  for (const account of accounts) {
    if (routedChannels(channels, account, notice.category).length > 0) controls.set(account, await ports.alerts.channelControls(account));
  }
  return channelsTaking(channels, controls, notice, now);
}

/**
 * `channelAudience` over what was read (pure): the channels of `channels` that take the notice
 * about each account of `controls` (its channel controls, read for the accounts asked), with
 * those accounts, in the order given.
 */
export function channelsTaking(
  channels: readonly ChannelRecord[],
  controls: ReadonlyMap<string, ChannelControls>,
  notice: TakenNotice,
  now: number,
): ChannelTaking[] {
  const takes = channels.filter((c) => channelDefinition(c.type).limits.takes(notice.category));
  const taken = new Map<string, { channel: ChannelRecord; accounts: string[] }>();
  for (const [account, controlsOf] of controls) {
    for (const channel of routedChannels(takes, account, notice.category).filter((c) => channelTakes(controlsOf, c.name, notice, now))) {
      const entry = taken.get(channel.name) ?? { channel, accounts: [] };
      entry.accounts.push(account);
      taken.set(channel.name, entry);
    }
  }
  return [...taken.values()];
}
