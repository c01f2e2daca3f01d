import { noticeWords } from '../domain/noticeText';
import { unknownKeyNoticeText } from '../domain/unknownKeyNotice';
import { formatTime } from '../mail/render/format';
import type { DelegateProtectionView } from '../mail/render/views';
import type { NotifyMessage } from '../messages/notifyMessage';
import { delegateRow, emailBase, revokeAllLink } from './emailParts';
import type { NoticeField } from '../domain/notice';
import type { NoticePresenter } from './noticePresenter';
import { accountField, nameValue, revokeAllLinks, revokeLinks, who } from './noticeParts';

type NewDelegateMessage = Extract<NotifyMessage, { kind: 'new-delegate' }>;

/** The pager incident of one delegate of one account: a new delegate opens it, its revocation closes it. */
export function delegateIncidentKey(account: string, delegate: string): string {
  return `delegate:${account.toLowerCase()}:${delegate.toLowerCase()}`;
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
