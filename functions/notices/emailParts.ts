import type { DelegateRow, RevokeAllLink } from '../mail/render/views';
import type { MailInput, NoticeInput } from './noticeInput';
import type { NoticeText } from './noticeText';

/** What every alert email's view starts with: the account, when it was generated, the footer's links. */
export function emailBase(input: NoticeInput, mail: MailInput) {
  return {
    account: { address: input.account.address, label: input.account.label },
    generatedAtMs: mail.now,
    links: { unsubscribeUrl: mail.unsubscribeUrl, preferencesUrl: input.links.preferencesUrl(), statusUrl: null },
  };
}

/** What a protection notice's email view starts with (the kill switch, a decision's result): `emailBase`, then its words. */
export function wordedEmailBase(input: NoticeInput, mail: MailInput, text: NoticeText) {
  return { ...emailBase(input, mail), title: text.title, summary: text.summary, lines: [...text.lines] };
}

/** A delegate as an email's table row, with its Revoke link. */
export function delegateRow(
  delegate: { address: string; name: string | null; expiryMs: number | null; isWebClient: boolean },
  input: NoticeInput,
): DelegateRow {
  return {
    name: delegate.name,
    address: delegate.address,
    kind: delegate.isWebClient ? 'web-session' : 'api-key',
    expiryMs: delegate.expiryMs,
    revokeUrl: input.links.revokeUrl(delegate.address),
  };
}

/** The email's "Revoke all N API keys" link: only with a signer and at least one delegate. */
export function revokeAllLink(input: NoticeInput): RevokeAllLink | null {
  if (input.delegateCount < 1) return null;
  const url = input.links.revokeAllUrl();
  return url === null ? null : { url, count: input.delegateCount };
}
