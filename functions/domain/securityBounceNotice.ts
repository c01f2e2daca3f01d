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

/** A rendered operator email. */
export interface OperatorEmail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
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

/** The CLI commands of the runbook's "A security recipient bounced" section. */
export const SECURITY_BOUNCE_STEPS = [
  'Find out why the mailbox refused mail (the diagnostic above; a server that no longer offers TLS is refused, since the stage requires it).',
  'Once it accepts mail again: npx sentinel recipients unsuppress <address> --force',
  'Or give each account a recipient that works: npx sentinel accounts update <account> --email <a>,<b>',
  'Until then nobody at that address is told of new delegates, revocations or a kill switch firing. See docs/operations.md, "A security recipient bounced".',
] as const;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const accountLine = (account: SecurityAccount): string => (account.label ? `${account.address} (${account.label})` : account.address);

/**
 * The operator's email about one security recipient suppressed by a permanent bounce: the address,
 * the accounts it got security notices for, the bounce's type, subtype, status and diagnostic, and
 * what to do. It carries no link and no secret.
 */
export function securityBounceNotice(bounce: SecurityBounce): OperatorEmail {
  const kind = [bounce.bounceType, bounce.bounceSubType].filter((p): p is string => p !== null && p !== '').join(' / ');
  const facts: [string, string][] = [
    ['Address', bounce.recipient],
    ['Bounce', kind],
    ...(bounce.status ? ([['Status', bounce.status]] as [string, string][]) : []),
    ['Diagnostic', bounce.diagnostic ?? '(none given)'],
    ...(bounce.bouncedAt ? ([['Bounced at', bounce.bouncedAt]] as [string, string][]) : []),
  ];
  const count = bounce.accounts.length;
  const intro = `A permanent bounce suppressed ${bounce.recipient}, which was getting security notices for ${count} account${count === 1 ? '' : 's'}. No more mail goes to that address.`;
  const accounts = bounce.accounts.map(accountLine);
  const text = [
    intro,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    'Security notices went to this address for:',
    ...accounts.map((a) => `- ${a}`),
    '',
    'What to do:',
    ...SECURITY_BOUNCE_STEPS.map((step, i) => `${i + 1}. ${step}`),
    '',
  ].join('\n');
  const html = [
    `<p>${escape(intro)}</p>`,
    `<table>${facts.map(([k, v]) => `<tr><th align="left">${escape(k)}</th><td>${escape(v)}</td></tr>`).join('')}</table>`,
    '<p>Security notices went to this address for:</p>',
    `<ul>${accounts.map((a) => `<li>${escape(a)}</li>`).join('')}</ul>`,
    '<p>What to do:</p>',
    `<ol>${SECURITY_BOUNCE_STEPS.map((step) => `<li>${escape(step)}</li>`).join('')}</ol>`,
  ].join('');
  return { subject: `Portfolio Sentinel: security recipient ${bounce.recipient} suppressed by a bounce`, text, html };
}
