import { cleanDelegateName } from '../domain/delegateName';
import type { NoticeField, NoticeLink } from '../domain/notice';
import { verbatim } from '../domain/verbatimText';
import type { NoticeInput } from './noticeInput';

/** A delegate as a notice names it: its name (cleaned, shown as code in chat: an intruder may choose it) and address. */
export function who(delegate: { address: string; name: string | null }): string {
  const name = cleanDelegateName(delegate.name);
  return name === null ? delegate.address : `${verbatim(name)} (${delegate.address})`;
}

/** A delegate's name as a field value: shown as code in chat. */
export function nameValue(name: string | null): string {
  const cleaned = cleanDelegateName(name);
  return cleaned === null ? '(none)' : verbatim(cleaned);
}

/** The account's field: its label and address. */
export function accountField(input: NoticeInput): NoticeField {
  const { account } = input;
  return { label: 'Account', value: account.label ? `${account.label} (${account.address})` : account.address };
}

/** The delegate's Revoke link: only with a signer. */
export function revokeLinks(input: NoticeInput, delegate: string): NoticeLink[] {
  const url = input.links.revokeUrl(delegate);
  return url === null ? [] : [{ label: 'Revoke', url, action: 'revoke' }];
}

/** The "Revoke all N API keys" link: only with a signer and at least one delegate (its GET changes nothing, so a chat preview is safe). */
export function revokeAllLinks(input: NoticeInput): NoticeLink[] {
  const url = input.delegateCount > 0 ? input.links.revokeAllUrl() : null;
  if (url === null) return [];
  return [{ label: `Revoke all ${input.delegateCount} API key${input.delegateCount === 1 ? '' : 's'}`, url, action: 'revoke-all' }];
}

/**
 * `names` joined with commas, as many as fit in `chars` (the first always), then "and" how many more
 * and where each is listed (`more`, counting `unlisted` names the caller never had too; alone when
 * no name is shown): a paragraph naming an account's keys stays within its bound however many keys
 * there are.
 */
export function namesWithin(names: readonly string[], chars: number, more: (count: number) => string, unlisted = 0): string {
  const shown: string[] = [];
  let length = 0;
  for (const name of names) {
    if (shown.length > 0 && length + name.length + 2 > chars) break;
    shown.push(name);
    length += name.length + 2;
  }
  const left = names.length - shown.length + unlisted;
  if (left === 0) return shown.join(', ');
  return shown.length === 0 ? more(left) : `${shown.join(', ')} and ${more(left)}`;
}
