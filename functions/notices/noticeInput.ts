import type { ChartRef } from '../mail/render/views';

/**
 * The links a notice offers, of the one who receives it (a recipient's own tokens, or a channel's,
 * bound to it). Capabilities: they go into the notice and nowhere else.
 */
export interface NoticeLinks {
  /** One-click revocation of a delegate; `null` when the account has no signer. */
  revokeUrl(delegate: string): string | null;
  /** Revokes every delegate its confirmation page lists; `null` when the account has no signer. */
  revokeAllUrl(): string | null;
  /** Snoozes the account's drawdown alerts for `hours`, for this recipient or channel. */
  snoozeUrl(hours: number): string;
  /** This recipient's or channel's preferences for the account. */
  preferencesUrl(): string;
}

/** What only an email shows, loaded for a mailbox: its absence presents the notice for a chat. */
export interface MailInput {
  /** When the email is generated. */
  readonly now: number;
  /** The footer's unsubscribe link (a security notice's is the preferences page). */
  readonly unsubscribeUrl: string;
  /** The account's configured drawdown levels (a drawdown alert lists them; empty: the message's). */
  readonly drawdownThresholds: readonly number[];
  /** Recent equity and PnL, drawdown alerts only. */
  readonly chart: ChartRef | null;
  /** Dollar loss of the deepest drawdown over the evaluated range (drawdown alerts); `null` shows the current one. */
  readonly maxDrawdownUsd: number | null;
  /** The alert's re-arm margin, percent points. */
  readonly rearmMarginPct: number;
  /** Whether the delegate is a web session key (the revocation result does not say). */
  readonly isWebClient: (delegate: string) => boolean;
  /** The delegate's name as collection saw it (revoke-all results), `null` when unnamed or unknown. */
  readonly delegateName: (delegate: string) => string | null;
}

/** What a presenter takes besides the message: what was loaded for it, and the links of the one it goes to. */
export interface NoticeInput {
  readonly account: { readonly address: string; readonly label: string | null; readonly timezone: string };
  /** The account's delegates known when the notice is made (the "Revoke all N API keys" link's N; 0 where no link offers it). */
  readonly delegateCount: number;
  /**
   * The account's delegates still listed (addresses, any case), where the notice's head asks for the
   * delegates' views: what a revoke-all result names as left beyond its batch. Absent elsewhere.
   */
  readonly listedDelegates?: readonly string[];
  readonly links: NoticeLinks;
  /** Present when the notice goes to a mailbox: the notice then carries its email section. */
  readonly mail?: MailInput | undefined;
}
