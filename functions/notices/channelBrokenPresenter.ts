import type { EventPresenter } from './eventPresenter';
import { plainHtml } from './plainHtml';
import type { PlainNoticeEmail } from './plainNoticeEmail';

/** A channel refused a notice about `account` for good, and was marked broken at `since`. */
export interface ChannelBrokenEvent {
  readonly channel: { readonly name: string; readonly type: string };
  readonly reason: string;
  readonly since: number;
  readonly account: { readonly address: string; readonly label: string | null };
}

function words({ channel, reason, account }: ChannelBrokenEvent) {
  const who = account.label ? `${account.label} (${account.address})` : account.address;
  return {
    title: `Channel "${channel.name}" stopped accepting alerts`,
    lines: [
      `The ${channel.type} channel "${channel.name}" refused an alert about ${who} for good: ${reason}.`,
      `Alerts still reach you by email. Nothing more goes to that channel until it is fixed and "sentinel channels test ${channel.name}" succeeds.`,
    ],
  };
}

/** The event id of a channel's broken notice: one per time it was marked broken. */
export function channelBrokenEventId(channel: string, since: number): string {
  return `channel-broken:${channel}:${since}`;
}

/**
 * The short notice telling an account's recipients that one of its channels refused delivery for
 * good (`channel-broken:<name>:<since>`); its email is the same two sentences, plain.
 */
export const channelBrokenPresenter: EventPresenter<ChannelBrokenEvent, PlainNoticeEmail> = {
  head: { type: 'channel.broken', category: 'security', email: 'plain', record: 'channel-broken' },
  present(event) {
    const { channel, reason, since, account } = event;
    const { title, lines } = words(event);
    return {
      id: channelBrokenEventId(channel.name, since),
      type: 'channel.broken',
      category: 'security',
      severity: 'warning',
      title,
      summary: lines.join(' '),
      fields: [
        { label: 'Channel', value: `${channel.name} (${channel.type})` },
        { label: 'Reason', value: reason },
      ],
      links: [],
      account: { address: account.address, label: account.label },
      at: since,
      chart: null,
      incident: null,
      details: { channel: channel.name, type: channel.type, reason, since },
    };
  },
  email(event) {
    const { title, lines } = words(event);
    return {
      kind: 'plain',
      subject: title,
      text: lines.join('\n\n'),
      html: `<!doctype html><html><body>${lines.map((l) => `<p>${plainHtml(l)}</p>`).join('')}</body></html>`,
    };
  },
};
