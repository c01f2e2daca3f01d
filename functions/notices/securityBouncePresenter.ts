import type { SecurityAccount, SecurityBounce } from '../domain/securityBounce';
import type { EventPresenter } from './eventPresenter';
import { plainHtml } from './plainHtml';
import type { PlainNoticeEmail } from './plainNoticeEmail';

/** The CLI commands of the runbook's "A security recipient bounced" section. */
export const SECURITY_BOUNCE_STEPS = [
  'Find out why the mailbox refused mail (the diagnostic above; a server that no longer offers TLS is refused, since the stage requires it).',
  'Once it accepts mail again: npx sentinel recipients unsuppress <address> --force',
  'Or give each account a recipient that works: npx sentinel accounts update <account> --email <a>,<b>',
  'Until then nobody at that address is told of new delegates, revocations or a kill switch firing. See docs/operations.md, "A security recipient bounced".',
] as const;

/** A bounced security recipient, under its notice's id (`security-bounce:<bounce>#<address>`). */
export interface SecurityBounceEvent {
  readonly id: string;
  readonly bounce: SecurityBounce;
  /** When the notice is made. */
  readonly at: number;
}

const accountLine = (account: SecurityAccount): string => (account.label ? `${account.address} (${account.label})` : account.address);

function words(bounce: SecurityBounce) {
  const kind = [bounce.bounceType, bounce.bounceSubType].filter((p): p is string => p !== null && p !== '').join(' / ');
  const facts: [string, string][] = [
    ['Address', bounce.recipient],
    ['Bounce', kind],
    ...(bounce.status ? ([['Status', bounce.status]] as [string, string][]) : []),
    ['Diagnostic', bounce.diagnostic ?? '(none given)'],
    ...(bounce.bouncedAt ? ([['Bounced at', bounce.bouncedAt]] as [string, string][]) : []),
  ];
  const count = bounce.accounts.length;
  return {
    title: `Portfolio Sentinel: security recipient ${bounce.recipient} suppressed by a bounce`,
    intro: `A permanent bounce suppressed ${bounce.recipient}, which was getting security notices for ${count} account${count === 1 ? '' : 's'}. No more mail goes to that address.`,
    facts,
    accounts: bounce.accounts.map(accountLine),
  };
}

/**
 * The operator's notice about one security recipient suppressed by a permanent bounce: the address,
 * the accounts it got security notices for, the bounce's type, subtype, status and diagnostic, and
 * what to do; its email says the same, plain. It carries no link and no secret.
 */
export const securityBouncePresenter: EventPresenter<SecurityBounceEvent, PlainNoticeEmail> = {
  head: { type: 'security.bounce', category: 'security', email: 'plain', record: 'security-bounce' },
  present({ id, bounce, at }) {
    const { title, intro, facts, accounts } = words(bounce);
    const first = bounce.accounts[0];
    return {
      id,
      type: 'security.bounce',
      category: 'security',
      severity: 'critical',
      title,
      summary: intro,
      fields: [...facts.map(([label, value]) => ({ label, value })), { label: 'Accounts', value: accounts.join(', ') }],
      links: [],
      account: { address: first?.address ?? 'none', label: first?.label ?? null },
      at,
      chart: null,
      incident: null,
      details: { recipient: bounce.recipient, accounts: bounce.accounts.map((a) => a.address) },
    };
  },
  email({ bounce }) {
    const { title, intro, facts, accounts } = words(bounce);
    return {
      kind: 'plain',
      subject: title,
      text: [
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
      ].join('\n'),
      html: [
        `<p>${plainHtml(intro)}</p>`,
        `<table>${facts.map(([k, v]) => `<tr><th align="left">${plainHtml(k)}</th><td>${plainHtml(v)}</td></tr>`).join('')}</table>`,
        '<p>Security notices went to this address for:</p>',
        `<ul>${accounts.map((a) => `<li>${plainHtml(a)}</li>`).join('')}</ul>`,
        '<p>What to do:</p>',
        `<ol>${SECURITY_BOUNCE_STEPS.map((step) => `<li>${plainHtml(step)}</li>`).join('')}</ol>`,
      ].join(''),
    };
  },
};
