import type { Address } from 'viem';
import { checksumAddress } from '../../domain/address';
import type { ActionLinks } from '../../links/actionLinks';

/** Links of one recipient's copy (each recipient has their own tokens). */
export interface RecipientLinks {
  readonly unsubscribeUrl: string;
  /** One-click revocation of `delegate`; `null` when the account has no signer. */
  revokeUrl(delegate: string): string | null;
  snoozeUrl(hours: number): string;
}

/**
 * The action links of one recipient's copy of an email, all issued at `now`: their own
 * unsubscribe link (bound to their address), and revocation links only when the account has a
 * signer. Links are capabilities: they go into the email and nowhere else.
 */
export function recipientLinks(
  links: Pick<ActionLinks, 'build'>,
  account: { address: Address; signer: string | null },
  email: string,
  now: number,
): RecipientLinks {
  return {
    unsubscribeUrl: links.build({ purpose: 'unsubscribe', account: account.address, email }, now),
    revokeUrl: (delegate) =>
      account.signer === null ? null : links.build({ purpose: 'revoke', account: account.address, delegate: checksumAddress(delegate) }, now),
    snoozeUrl: (hours) => links.build({ purpose: 'snooze', account: account.address, snoozeHours: hours }, now),
  };
}
