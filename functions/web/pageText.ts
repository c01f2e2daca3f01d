import { shortAddress } from '../mail/render/format';

/** An account as the pages name it: its label and short address, or the short address alone. */
export function accountName(account: { readonly address: string; readonly label: string | null }): string {
  return account.label ? `${account.label} (${shortAddress(account.address)})` : shortAddress(account.address);
}

/** A snooze's length in words: "1 day", "3 days", "1 hour", "6 hours". */
export function hoursText(hours: number): string {
  if (hours % 24 === 0) return hours === 24 ? '1 day' : `${hours / 24} days`;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
