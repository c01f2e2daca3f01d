import { describe, expect, it } from 'vitest';
import { discordMessage } from '../../../functions/channels/discord/discordMessage';
import { pagerdutyEvent } from '../../../functions/channels/pagerduty/pagerdutyEvent';
import { slackMessage } from '../../../functions/channels/slack/slackMessage';
import { telegramMessage } from '../../../functions/channels/telegram/telegramMessage';
import { accountSettingsSchema } from '../../../functions/domain/account';
import { checksumAddress } from '../../../functions/domain/address';
import { newTrackedAccount } from '../../../functions/domain/trackedAccount';
import { notifyMessageSchema, type NotifyEvent } from '../../../functions/messages/notifyMessage';
import { presentNotice } from '../../../functions/notices/presentNotice';
import { formOf, getPage } from '../../support/revocation/revocationWorld';
import { channelRecordOf } from '../../support/channels/channelRecordFixture';
import { servedSystemPerFile } from '../../support/local/servedSystemPerFile';
import { registerDelegateViews } from '../../support/store/delegateViews';
import { drawdownFiredAt } from '../../support/channels/noticeFixtures';

const { sim, serving, signerEnv } = servedSystemPerFile({ seed: 29 });

/** What link unfurlers send (Slack, Discord, Telegram): a plain GET, sometimes a HEAD first. */
const UNFURLERS = [
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'TelegramBot (like TwitterBot)',
];

/**
 * Slack, Discord and Telegram fetch the links of a message to preview them. Every link a chat
 * message carries (Revoke, Revoke all, Snooze, Preferences buttons) is opened by those unfurlers with GET and
 * HEAD against the real local link endpoint (`sentinel serve`): nothing on the chain, in the
 * alert state or in the audit trail changes, and each page still offers its confirmation.
 */
describe('links in chat messages are safe to preview', () => {
  it('GET and HEAD of every Slack, Discord, Telegram and PagerDuty link change nothing', async () => {
    const { repos, links } = serving.system;
    const owner = await sim.control.createAccount({ label: 'unfurl', historyDays: 1 });
    const added = await sim.control.addDelegate(owner.address, { name: 'intruder', expiresInMs: 86_400_000 });
    signerEnv['UNFURL_OWNER_KEY'] = owner.privateKey;
    const settings = accountSettingsSchema.parse({ address: owner.address, emails: ['unfurl@example.com'], label: 'unfurl', signer: 'env:UNFURL_OWNER_KEY' });
    const now = Date.now();
    await repos.accounts.create(newTrackedAccount(settings, now));
    const delegate = added.delegate.address;
    await registerDelegateViews(repos, serving.system.chain, settings.address, now);
    // The drawdown the notice is about: its level is breached, so the snooze link is current.
    await repos.alerts.compareAndSet(settings.address, 'drawdown', null, {
      levels: { '10': { status: 'breached', lastValue: 11, lastSentAt: now, breachedAt: now, named: true } },
    });
    serving.system.revokeAll.start();
    // The channel the chat links name: its link epoch is read on every open.
    await repos.channels.create(channelRecordOf({ name: 'desk', type: 'slack', secret: 'env:UNFURL_SLACK_URL', accounts: [settings.address] }, now));

    const ctx = {
      account: { address: settings.address, label: 'unfurl', timezone: 'UTC' },
      links: {
        revokeUrl: (d: string) => links.build({ purpose: 'revoke', account: settings.address, delegate: checksumAddress(d) }, now),
        snoozeUrl: (hours: number) => links.build({ purpose: 'channel-snooze', account: settings.address, channel: 'desk', snoozeHours: hours }, now),
        preferencesUrl: () => links.build({ purpose: 'channel-preferences', account: settings.address, channel: 'desk' }, now),
        revokeAllUrl: () => links.build({ purpose: 'revoke-all', account: settings.address }, now),
      },
      delegateCount: 1,
    };
    const events: NotifyEvent[] = [
      {
        kind: 'new-delegate',
        eventId: 'unfurl-new',
        account: settings.address,
        at: now,
        delegate: { address: delegate, expiryMs: null, name: 'intruder', isWebClient: false },
        firstSeenAt: now,
      },
      drawdownFiredAt(settings.address, now, 'unfurl-dd'),
    ];
    const rendered = events.flatMap((event) => {
      const notice = presentNotice(notifyMessageSchema.parse(event), ctx);
      return [slackMessage(notice), discordMessage(notice), telegramMessage(notice, '-1001'), pagerdutyEvent(notice)];
    });
    const urls = [...new Set(rendered.flatMap((r) => [...JSON.stringify(r).matchAll(/https?:\/\/[^\s"\\)\]<>]+/g)].map((m) => m[0])))];
    const actions = urls.map((u) => new URL(u).pathname).sort();
    expect(new Set(actions), 'the chat messages carry revoke, revoke-all, snooze and preferences links').toEqual(
      new Set(['/revoke', '/revoke-all', '/snooze', '/preferences']),
    );

    const state = async () => ({
      chain: await sim.control.account(owner.address).then((v) => ({ nonce: v.nonce, delegates: v.delegates.map((d) => d.address) })),
      alerts: await repos.alerts.listForAccount(settings.address),
      audit: await repos.audit.listForAccount(settings.address, 100),
    });
    const before = await state();
    expect(before.chain.delegates).toHaveLength(1);
    for (const url of urls) {
      for (const agent of UNFURLERS) {
        const head = await fetch(url, { method: 'HEAD', headers: { 'user-agent': agent }, redirect: 'manual' });
        expect(head.status, `HEAD ${new URL(url).pathname}`).toBeLessThan(500);
        const page = await getPage(url, { 'user-agent': agent });
        expect(page.status, `GET ${new URL(url).pathname}`).toBe(200);
      }
    }
    // Give a queued revocation (there must be none) the time the revoke-all worker would take.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await state()).toEqual(before);
    expect(await repos.alerts.channelControls(settings.address), 'no chat control changed').toEqual({ snoozes: {}, mutes: {} });
    for (const url of urls) expect(formOf(await getPage(url)).action, `${new URL(url).pathname} still asks to confirm`).toMatch(/^http/);
  }, 120_000);
});
