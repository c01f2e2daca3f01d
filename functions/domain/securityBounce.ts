/** One account whose security notices the bounced address was getting. */
export interface SecurityAccount {
  readonly address: string;
  readonly label: string | null;
}

/** A permanent bounce that suppressed an address still getting security notices. */
export interface SecurityBounce {
  /** The suppressed address, lower-cased. */
  readonly recipient: string;
  /** The accounts it got security notices for (a recipient that had not opted out of them). */
  readonly accounts: readonly SecurityAccount[];
  readonly bounceType: string;
  readonly bounceSubType: string | null;
  /** The receiving server's reply as SES reports it, made plain ({@link plainDiagnostic}). */
  readonly diagnostic: string | null;
  /** The SMTP enhanced status code, e.g. `5.7.1`. */
  readonly status: string | null;
  /** When SES recorded the bounce (ISO 8601), when it says. */
  readonly bouncedAt: string | null;
}

const MAX_DIAGNOSTIC = 300;
const LINK = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+/gi;
/** Control characters (C0, DEL, C1) as spaces: the diagnostic is shown on one line. */
const withoutControls = (text: string): string =>
  Array.from(text, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code < 0xa0) ? ' ' : c;
  }).join('');

/**
 * A receiving server's diagnostic as the notice may show it: one line, links replaced (a remote
 * server's reply may carry any URL), at most 300 characters; null when nothing is left.
 */
export function plainDiagnostic(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const plain = withoutControls(raw).replace(LINK, '[link removed]').replace(/\s+/g, ' ').trim();
  if (plain === '') return null;
  return plain.length > MAX_DIAGNOSTIC ? `${plain.slice(0, MAX_DIAGNOSTIC - 1)}…` : plain;
}
