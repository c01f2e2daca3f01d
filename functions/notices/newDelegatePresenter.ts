import type { DelegateProtection, UnknownKeyAction } from '../domain/delegateProtection';
import { formatTime } from '../mail/render/format';
import type { DelegateProtectionView } from '../mail/render/views';
import type { NotifyMessage } from '../messages/notifyMessage';
import { delegateRow, emailBase, revokeAllLink } from './emailParts';
import type { NoticeField } from '../domain/notice';
import type { NoticePresenter } from './noticePresenter';
import { accountField, nameValue, revokeAllLinks, revokeLinks, who } from './noticeParts';
import { noticeWords, type NoticeText } from './noticeText';

type NewDelegateMessage = Extract<NotifyMessage, { kind: 'new-delegate' }>;

/** The pager incident of one delegate of one account: a new delegate opens it, its revocation closes it. */
export function delegateIncidentKey(account: string, delegate: string): string {
  return `delegate:${account.toLowerCase()}:${delegate.toLowerCase()}`;
}

/**
 * The words of a protected new-delegate notice, shared by the email and every channel; its lines
 * say what was done and why, how to add the key again, what stays, what to do.
 */
export interface UnknownKeyNoticeText extends NoticeText {
  /** Whether the key was revoked, or is being: the notice offers no revoke link then. */
  readonly revoked: boolean;
}

/** What became of the key, in a sentence, and whether it is gone (or going). */
function actionText(action: UnknownKeyAction, kind: string): { title: string; line: string; revoked: boolean } {
  const notRevoked = `Unknown ${kind} NOT revoked`;
  const yourself = 'Revoke it yourself now unless someone on the desk added it.';
  if (action.kind === 'kept-web-session') {
    return {
      title: `Unknown web session on this account`,
      line: `It is marked as a web session, so it was kept (revoke-unknown is api-keys). Whoever signed it chose that mark: unless someone on the desk just logged in on the web, revoke it now.`,
      revoked: false,
    };
  }
  if (action.kind === 'not-set-up') {
    return { title: notRevoked, line: `It was not revoked: automatic protection is not set up on this deployment. ${yourself}`, revoked: false };
  }
  const outcome = action.outcome;
  switch (outcome.kind) {
    case 'queued':
      return {
        title: `Unknown ${kind} revoked automatically`,
        line: 'It was revoked automatically: its removal is queued and signed like a click on a revoke link; a revocation result follows.',
        revoked: true,
      };
    case 'dry-run':
      return { title: `Unknown ${kind} would be revoked (dry run)`, line: `Dry run: it would have been revoked, and nothing was. ${yourself}`, revoked: false };
    case 'protection-off':
      return {
        title: notRevoked,
        line: `It was not revoked: automatic protection is off for this deployment ("sentinel protection on" turns it on). ${yourself}`,
        revoked: false,
      };
    case 'not-armed':
      return { title: notRevoked, line: `It was not revoked: the protection service does not hold this account as armed. ${yourself}`, revoked: false };
    case 'capped':
      return {
        title: notRevoked,
        line: `It was not revoked: the cap (${outcome.cap}) is reached; past it, protection alerts only. ${yourself}`,
        revoked: false,
      };
    case 'breaker-open':
      return {
        title: notRevoked,
        line: `It was not revoked: ${outcome.firedAccounts} accounts fired within the hour, which points to a data fault, so automatic protection holds back and the operator is told. ${yourself}`,
        revoked: false,
      };
    case 'nothing-to-revoke':
      return {
        title: notRevoked,
        line: 'Nothing was revoked: by the time protection checked, the key was gone, kept or already being revoked.',
        revoked: false,
      };
  }
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const SUFFIXES: Readonly<Record<string, string>> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const ordinalRules = new Intl.PluralRules('en', { type: 'ordinal' });

/** "third", "12th": a key's place among the unknown keys within a day. */
function ordinal(n: number): string {
  return ORDINALS[n - 1] ?? `${n}${SUFFIXES[ordinalRules.select(n)] ?? 'th'}`;
}

/** How a notice names a key that is not the first unknown key within a day; `withinDay` absent: a message from before the place was kept. */
function repeatText(withinDay: number | undefined): { line: string; title: string } {
  if (withinDay === undefined) return { line: 'Another unknown key appeared within a day', title: 'another unknown key within a day' };
  // The first of several seen by one check: they came at once.
  if (withinDay === 1) return { line: 'Several unknown keys appeared at once', title: 'several unknown keys at once' };
  const place = ordinal(withinDay);
  return { line: `This is the ${place} unknown key within a day`, title: `${place} unknown key within a day` };
}

/**
 * The title, severity and paragraphs of a new-delegate notice that unknown-key protection judged:
 * an announced key (kept, noticed as expected), or an unknown one (revoked, would be, or was not,
 * and why). Every unknown-key notice says how to add the key again and that resting orders, TWAPs
 * and positions stay; a second (third, …) unknown key within a day says which it is, and to move funds.
 */
export function unknownKeyNoticeText(protection: DelegateProtection, ctx: { who: string; account: string; delegate: string }): UnknownKeyNoticeText {
  if (protection.verdict === 'announced') {
    return {
      title: 'Expected delegate added',
      summary: `${ctx.who} appeared as announced (sentinel delegates expect). It is kept, and known from now on.`,
      severity: 'info',
      revoked: false,
      lines: ['If no one on the desk added it, revoke it now: an announcement only says a key was expected.'],
    };
  }
  const kind = protection.webSession ? 'web session' : 'API key';
  const act = actionText(protection.action, kind);
  const lines = [
    act.line,
    `Why: no one announced it ("sentinel delegates expect"), and it was not among the account's keys when unknown-key protection was armed.`,
    `To add it again: run "sentinel delegates expect ${ctx.account} ${ctx.delegate}" first (open for an hour by default), then add the key.`,
    'Revoking a key cancels nothing: resting orders, TWAPs and open positions stay. Cancel or close from the owner account what is not yours.',
  ];
  const repeat = protection.repeatWithinDay ? repeatText(protection.withinDay) : null;
  if (repeat !== null) {
    lines.unshift(
      `${repeat.line}: someone else likely holds the owner key, which can also withdraw funds. Move the funds to an account whose key is safe now; revoking keys is not enough.`,
    );
  }
  return {
    title: repeat === null ? act.title : `${act.title}: ${repeat.title}, move funds`,
    summary: `${ctx.who} appeared without being announced.`,
    severity: 'critical',
    revoked: act.revoked,
    lines,
  };
}

/** A new delegate, and (with `protection`) what the unknown-key rule made of it: expected, unknown, being revoked. */
export const newDelegatePresenter: NoticePresenter<NewDelegateMessage> = {
  head: () => ({ type: 'delegate.new', category: 'security', email: 'new-delegate', loads: { delegateCount: true } }),
  present(message, input) {
    const zone = input.account.timezone;
    const fields: NoticeField[] = [
      accountField(input),
      { label: 'Delegate', value: message.delegate.address },
      { label: 'Name', value: nameValue(message.delegate.name) },
      { label: 'Kind', value: message.delegate.isWebClient ? 'web session key' : 'API key' },
      { label: 'Expires', value: message.delegate.expiryMs === null ? 'never' : formatTime(message.delegate.expiryMs, zone) },
      { label: 'First seen', value: formatTime(message.firstSeenAt, zone) },
    ];
    const incident = { key: delegateIncidentKey(input.account.address, message.delegate.address), action: 'trigger' as const };
    const details = { delegate: message.delegate, firstSeenAt: message.firstSeenAt, ...(message.protection ? { protection: message.protection } : {}) };
    if (message.protection) {
      const text = unknownKeyNoticeText(message.protection, { who: who(message.delegate), account: input.account.address, delegate: message.delegate.address });
      return {
        ...noticeWords(text),
        fields,
        // Every unknown or announced key keeps its links: one being revoked too, so a person can act if the signer cannot.
        links: [...revokeLinks(input, message.delegate.address), ...revokeAllLinks(input)],
        // An announced key pages no one; an unknown one always does, wherever a pager takes security notices.
        incident: message.protection.verdict === 'announced' ? null : incident,
        details,
      };
    }
    return {
      severity: 'critical',
      title: 'A new delegate can trade this account',
      summary: `${who(message.delegate)} appeared. If you did not add it, revoke it now.`,
      fields,
      links: [...revokeLinks(input, message.delegate.address), ...revokeAllLinks(input)],
      incident,
      details,
    };
  },
  email(message, input, mail) {
    return {
      kind: 'new-delegate',
      view: {
        ...emailBase(input, mail),
        delegate: delegateRow(message.delegate, input),
        firstSeenAtMs: message.firstSeenAt,
        revokeAll: revokeAllLink(input),
        protection: protectionView(message, input.account.address),
      },
    };
  },
};

/** The email's unknown-key section (its words name the delegate in quotes: the template escapes them). */
function protectionView(message: NewDelegateMessage, account: string): DelegateProtectionView | null {
  if (message.protection === undefined) return null;
  const { delegate } = message;
  const named = delegate.name ? `"${delegate.name}" (${delegate.address})` : delegate.address;
  const text = unknownKeyNoticeText(message.protection, { who: named, account, delegate: delegate.address });
  return {
    title: text.title,
    summary: text.summary,
    verdict: message.protection.verdict === 'announced' ? 'expected' : 'unknown',
    revoked: text.revoked,
    lines: [...text.lines],
  };
}
