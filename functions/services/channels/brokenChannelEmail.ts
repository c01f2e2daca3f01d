import type { RenderedEmail } from '../../mail/render/render';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The short email telling an account's recipients that one of its channels refused delivery for good. */
export function brokenChannelEmail(channel: { name: string; type: string }, reason: string, account: { address: string; label: string | null }): RenderedEmail {
  const who = account.label ? `${account.label} (${account.address})` : account.address;
  const lines = [
    `The ${channel.type} channel "${channel.name}" refused an alert about ${who} for good: ${reason}.`,
    'Alerts still reach you by email. Nothing more goes to that channel until it is fixed and "sentinel channels test ' + channel.name + '" succeeds.',
  ];
  return {
    subject: `Channel "${channel.name}" stopped accepting alerts`,
    text: lines.join('\n\n'),
    html: `<!doctype html><html><body>${lines.map((l) => `<p>${escape(l)}</p>`).join('')}</body></html>`,
  };
}
