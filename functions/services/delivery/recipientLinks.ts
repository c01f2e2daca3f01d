import type { Address } from 'viem';
import { checksumAddress } from '../../domain/address';
import type { LinkRequest } from '../../domain/linkClaims';
import type { MailCategory } from '../../domain/mailCategory';
import type { LinkMinter } from '../../links/linkMinter';

/** Links of one recipient's copy (each recipient has their own tokens). */
export interface RecipientLinks {
  /**
   * The footer's unsubscribe link and the `List-Unsubscribe` target: stops this email's category
   * only. For a security notice it is the footer's preferences page, and the email carries no
   * `List-Unsubscribe` (no header link leads to turning those off).
   */
  readonly unsubscribeUrl: string;
  /** Whether `unsubscribeUrl` takes an RFC 8058 one-click POST (`List-Unsubscribe-Post`). */
  readonly oneClickUnsubscribe: boolean;
  /** This recipient's email preferences page. */
  readonly preferencesUrl: string;
  /** One-click revocation of `delegate`; `null` when the account has no signer. */
  revokeUrl(delegate: string): string | null;
  /** Snoozes the account's drawdown alerts for `hours`, for this recipient only. */
  snoozeUrl(hours: number): string;
  /** Revokes every delegate its confirmation page lists; `null` when the account has no signer or the endpoint has no such page. */
  revokeAllUrl(): string | null;
}

/**
 * The action links of one recipient's copy of an email of `category`, all issued at `now`: their
 * own unsubscribe link (bound to their address and the category) and preferences link, and
 * revocation links only when the account has a signer. Links are capabilities: they go into the
 * email and nowhere else.
 */
export function recipientLinks(
  links: Pick<LinkMinter, 'build'> & { readonly revokeAllServed?: boolean },
  account: { address: Address; signer: string | null },
  email: string,
  now: number,
  category: MailCategory,
): RecipientLinks {
  const link = (request: LinkRequest): string => links.build(request, now);
  const preferencesUrl = link({ purpose: 'preferences', account: account.address, email });
  const oneClick = category !== 'security';
  return {
    unsubscribeUrl: category === 'security' ? preferencesUrl : link({ purpose: 'unsubscribe', account: account.address, email, category }),
    oneClickUnsubscribe: oneClick,
    preferencesUrl,
    revokeUrl: (delegate) => (account.signer === null ? null : link({ purpose: 'revoke', account: account.address, delegate: checksumAddress(delegate) })),
    snoozeUrl: (hours) => link({ purpose: 'snooze', account: account.address, snoozeHours: hours, email }),
    revokeAllUrl: () => (account.signer === null || links.revokeAllServed === false ? null : link({ purpose: 'revoke-all', account: account.address })),
  };
}
