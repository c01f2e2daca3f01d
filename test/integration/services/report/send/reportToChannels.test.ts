import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { newWebhookSecret } from '../../../../../functions/channels/webhook/webhookSignature';
import type { ChannelRecord } from '../../../../../functions/domain/channel';
import type { MailCategory } from '../../../../../functions/domain/mailCategory';
import { addDays, localDate, localDayBounds } from '../../../../../functions/domain/localTime';
import { shortAddress } from '../../../../../functions/mail/render/format';
import { defaultRecipientSettings } from '../../../../../functions/domain/recipientSchedule';
import type { TrackedAccount } from '../../../../../functions/domain/account';
import { saveRecipient } from '../../../../../functions/services/report/schedule/saveRecipient';
import { reportToChannels } from '../../../../../functions/services/report/send/reportToChannels';
import { digestRowsOf, REPORT_NOW, reportModelOf } from '../../../../support/report/chatReportFixtures';
import { presentDigest } from '../../../../../functions/notices/digestPresenter';
import type { ReportFanOut } from '../../../../../functions/messages/channelJob';
import type { QueueEntry } from '../../../../../functions/queue/messageQueue';
import { omittedNote } from '../../../../../functions/domain/noticeTableText';
import { sendToChannel } from '../../../../../functions/channels/channelSender';
import type { Received } from '../../../../../local/receivers/chatReceivers';
import { receiversPerFile } from '../../../../support/channels/receiversPerFile';
import { parseTelegramHtml } from '../../../../../local/receivers/telegramHtml';
import { uniqueEmail } from '../../../../support/delivery/mailHarness';
import { reportWorlds, type ReportWorld, type ReportWorldOptions } from '../../../../support/report/reportWorld';
import { trackedWithCurves } from '../../../../support/report/trackedWithCurves';
import { channelRecordOf } from '../../../../support/channels/channelRecordFixture';
import { sesStore } from '../../../../support/sesStore';
import { testAddress } from '../../../../support/store/accountFixture';
import { receiverSenderDeps } from '../../../../support/channels/receiverSenderDeps';

const SALT = 0x7c4;
const HOUR = 3_600_000;
/** 2025-06-02 08:00 Berlin: the reports of 2025-06-01 are due. */
const DUE = Date.parse('2025-06-02T06:00:00Z');
const START = DUE - 60_000;
const TOKEN = '777:report-bot-token';
const ROUTING_KEY = 'r'.repeat(32);
const SECRET = newWebhookSecret();
const schema = z.fromJSONSchema(JSON.parse(readFileSync('docs/channels/webhook.schema.json', 'utf8')) as Parameters<typeof z.fromJSONSchema>[0]);

let clockNow = () => START;
const receivers = receiversPerFile({ now: () => clockNow() });
let nextAddress = 1;
const worlds = reportWorlds();
afterAll(worlds.close);

async function chatWorld(options: { storedData?: boolean; fanOutQueue?: ReportWorldOptions['fanOutQueue'] } = {}): Promise<ReportWorld> {
  const w = await worlds.world(START, {
    realDigests: true,
    chat: receiverSenderDeps(receivers, {
      TG: TOKEN,
      SLACK: receivers.slackUrl('T1/B1/reports'),
      DISCORD: receivers.discordUrl('42', 'reports'),
      HOOK: SECRET,
      PD: ROUTING_KEY,
    }),
    ...(options.storedData ? { storedDataGraceMs: 60_000 } : {}),
    ...(options.fanOutQueue ? { fanOutQueue: options.fanOutQueue } : {}),
  });
  clockNow = w.clock.now;
  return w;
}

/** An account with two days of stored curves up to the due time. */
const track = (w: ReportWorld, emails: string[], label: string): Promise<TrackedAccount> =>
  trackedWithCurves(w, { address: testAddress(nextAddress++, SALT), emails, label }, DUE, DUE - HOUR);

/** A channel of `type` on `accounts`, its destination unique to this test (`tag`). */
async function channel(w: ReportWorld, name: string, type: ChannelRecord['type'], accounts: TrackedAccount[], categories: MailCategory[], tag: string) {
  const record = channelRecordOf(
    {
      name,
      type,
      secret: { telegram: 'env:TG', slack: 'env:SLACK', discord: 'env:DISCORD', webhook: 'env:HOOK', pagerduty: 'env:PD', teams: 'env:TEAMS' }[type],
      url: type === 'webhook' ? receivers.webhookUrl(`reports-${tag}`) : null,
      chatId: type === 'telegram' ? `-100${tag}` : null,
      categories,
      accounts: accounts.map((a) => a.address),
    },
    START,
  );
  await w.repos.channels.create(record);
}

/** What a destination received, from `since` on. */
function receivedBy(kind: Received['kind'], destination: string, since: number): Received[] {
  return receivers.received.slice(since).filter((r) => r.kind === kind && r.destination.includes(destination) && r.status < 300);
}

/** The visible text of a Telegram message or photo caption. */
function telegramText(r: Received): string {
  const body = JSON.parse(r.body) as { text?: string; caption?: string };
  const parsed = parseTelegramHtml(body.text ?? body.caption ?? '');
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.text;
}

async function runReports(w: ReportWorld, at: number): Promise<void> {
  w.clock.set(at);
  await w.reports.dispatch();
  expect(await w.reports.drain()).toMatchObject({ deadLettered: 0 });
  await w.drainChat();
}

describe('reports to chat (local receivers)', () => {
  it('posts the daily report once to each reports channel through the fan-out (chart where the type shows one), nothing elsewhere; a redelivered report job, fan-out job or re-published report posts nothing more', async () => {
    const published: QueueEntry<ReportFanOut>[] = [];
    const w = await chatWorld({
      fanOutQueue: (queue) => ({
        send: (entries) => {
          published.push(...entries);
          return queue.send(entries);
        },
      }),
    });
    const tag = `${Date.now() % 1_000_000}1`;
    const reader = uniqueEmail('chat-report');
    const account = await track(w, [reader], 'chat desk');
    await channel(w, 'tg', 'telegram', [account], ['drawdown', 'reports'], tag);
    await channel(w, 'slack', 'slack', [account], ['reports'], tag);
    await channel(w, 'discord', 'discord', [account], ['reports'], tag);
    await channel(w, 'hook', 'webhook', [account], ['reports'], tag);
    await channel(w, 'alerts-only', 'telegram', [account], ['drawdown', 'security', 'expiry'], `${tag}9`);
    await channel(w, 'pager', 'pagerduty', [account], ['security', 'reports'], tag);
    await channel(w, 'muted', 'telegram', [account], ['reports'], `${tag}8`);
    await w.repos.alerts.setChannelMutes(account.address, 'muted', ['reports']);
    const since = receivers.received.length;

    await runReports(w, DUE + 5_000);

    expect(await sesStore({ to: reader }), 'the email goes as today').toHaveLength(1);
    const photos = receivedBy('telegram', `-100${tag}`, since);
    expect(photos).toHaveLength(1);
    expect(JSON.parse(photos[0]!.body)).toMatchObject({ photo: { type: 'image/png' } });
    const caption = telegramText(photos[0]!);
    expect(caption).toContain('Daily report: chat desk');
    expect(caption).toContain('Equity: $');
    expect(caption).toContain('Delegates expiring within 7 days: 0');
    expect(caption).not.toContain('stored data');

    const slack = receivedBy('slack', 'T1/B1/reports', since);
    expect(slack).toHaveLength(1);
    expect(slack[0]!.body).toContain('Drawdown now');
    const discord = receivedBy('discord', '42', since);
    expect(discord).toHaveLength(1);
    expect(discord[0]!.headers['content-type'], 'the chart goes as an attachment').toMatch(/^multipart\/form-data/);

    const hooks = receivedBy('webhook', `reports-${tag}`, since);
    expect(hooks).toHaveLength(1);
    const hook = hooks[0]!;
    const body = JSON.parse(hook.body) as unknown;
    expect(schema.safeParse(body).success, 'the body validates against docs/channels/webhook.schema.json').toBe(true);
    // Sent on 2 Jun, the report covers 1 Jun: its id names the day it covers, as its title does.
    const covered = addDays(localDate(DUE, 'Europe/Berlin'), -1);
    expect(covered).toBe('2025-06-01');
    expect(body).toMatchObject({
      type: 'report.daily',
      id: `daily-report:${account.address}:${covered}`,
      data: { category: 'reports', details: { localDate: covered } },
    });
    expect(hook.headers['webhook-id']).toBe(`daily-report:${account.address}:${covered}#channel:hook`);
    expect(caption).toContain(`Daily report: chat desk (${shortAddress(account.address)}), ${covered}`);
    // Verified as the receiver would, at the time it received it (the library checks the timestamp against its clock).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Number(hook.headers['webhook-timestamp']) * 1_000);
      expect(new Webhook(SECRET).verify(hook.body, hook.headers)).toMatchObject({ type: 'report.daily' });
    } finally {
      vi.useRealTimers();
    }

    expect(receivedBy('telegram', `-100${tag}9`, since), 'a channel without reports gets nothing').toEqual([]);
    expect(receivedBy('telegram', `-100${tag}8`, since), "a channel whose chat muted the account's reports gets nothing").toEqual([]);
    expect(receivedBy('pagerduty', ROUTING_KEY, since), 'a pager never gets a report').toEqual([]);
    expect(published, 'one fan-out job for the report, whatever its channels').toHaveLength(1);
    expect(published[0]!.body.report.notice.links, 'presented once, without a channel link').toEqual([]);
    expect(w.counters.totals.get('ReportChannelJobs'), 'counted by the fan-out: one job per channel taking it').toBe(4);
    const preferencesOf = (r: Received) => /https?:\/\/[^"\s|>)]*\/preferences[^"\s|>)]*/.exec(r.body)?.[0];
    const links = [slack[0]!, discord[0]!, hook].map(preferencesOf);
    expect(links.every((l) => l !== undefined) && new Set(links).size, 'each chat its own Preferences link, minted by the fan-out').toBe(3);

    // The fan-out job delivered again (SQS at least once): its jobs are queued again, their delivery ids claimed, nothing posted.
    await w.chat?.fanOutQueue.send(published.map((entry) => ({ ...entry, id: 'fan-out-again' })));
    await w.drainChat();
    expect(w.counters.totals.get('ReportChannelJobs')).toBe(8);
    expect(receivers.received.slice(since).filter((r) => r.status < 300)).toHaveLength(4);

    // The report job delivered again: its emails are sent, nothing is rebuilt, nothing posted.
    const job = { kind: 'account' as const, address: account.address, reportDate: localDate(DUE, 'Europe/Berlin'), dueAt: DUE };
    await w.reports.reportQueue.send([{ id: 'again', body: job }]);
    await w.reports.drain();
    await w.drainChat();
    expect(published, 'a report every recipient has is not built or published again').toHaveLength(1);
    // The report built and published again (a job retried after a passing email failure, or a forced run of the day): the channel delivery ids are claimed, nothing is posted twice.
    const rebuilt = {
      ...reportModelOf('chat desk', { address: account.address }),
      timezone: 'Europe/Berlin',
      localDate: covered,
      period: localDayBounds(covered, 'Europe/Berlin'),
    };
    expect(await reportToChannels(w.deps, null, { model: rebuilt, chart: null })).toBe(true);
    await w.drainChat();
    expect(receivers.received.slice(since).filter((r) => r.status < 300)).toHaveLength(4);
    expect(await sesStore({ to: reader })).toHaveLength(1);

    // A copy on request (report --force --resend): posted again, labelled as a copy in every chat and the webhook, under an id of its own.
    const copyAt = w.clock.now() + 60_000;
    w.clock.set(copyAt);
    expect(await reportToChannels(w.deps, copyAt, { model: rebuilt, chart: null })).toBe(true);
    await w.drainChat();
    const copies = receivers.received
      .slice(since)
      .filter((r) => r.status < 300)
      .slice(4);
    expect(copies.map((r) => r.kind).sort()).toEqual(['discord', 'slack', 'telegram', 'webhook']);
    for (const post of copies) expect(post.body, post.kind).toContain('Daily report (copy): chat desk');
    expect(copies.filter((r) => r.kind !== 'webhook').every((r) => r.body.includes('A copy, sent again on request.'))).toBe(true);
    const copied = JSON.parse(copies.find((r) => r.kind === 'webhook')!.body) as unknown;
    expect(schema.safeParse(copied).success).toBe(true);
    expect(copied).toMatchObject({ id: `daily-report:${account.address}:${covered}:copy:${copyAt}`, data: { details: { copy: true, localDate: covered } } });
  }, 120_000);

  it('sends the emails and finishes the report when its chat notice cannot be published, counting ReportChannelFailures', async () => {
    const w = await chatWorld({
      fanOutQueue: () => ({
        send: (entries) =>
          Promise.resolve({
            sent: [],
            failed: entries.map((e) => ({ id: e.id, code: 'ServiceUnavailable', message: 'fan-out queue down', senderFault: false })),
          }),
      }),
    });
    const tag = `${Date.now() % 1_000_000}5`;
    const reader = uniqueEmail('chat-unpublished');
    const account = await track(w, [reader], 'unpublished desk');
    await channel(w, 'tg', 'telegram', [account], ['reports'], tag);
    const since = receivers.received.length;

    await runReports(w, DUE + 5_000);

    expect(await sesStore({ to: reader }), 'the email went').toHaveLength(1);
    expect(w.counters.totals.get('ReportsSent'), 'the report is sent, not retried').toBe(1);
    expect(w.counters.totals.get('ReportRetries') ?? 0).toBe(0);
    expect(w.counters.totals.get('ReportChannelFailures')).toBe(1);
    expect(receivedBy('telegram', `-100${tag}`, since), 'the chat misses this one').toEqual([]);
  }, 120_000);

  it('labels a report built from stored data (the chain down) in chat', async () => {
    const w = await chatWorld({ storedData: true });
    const tag = `${Date.now() % 1_000_000}2`;
    const reader = uniqueEmail('chat-stored');
    const account = await track(w, [reader], 'stored desk');
    await channel(w, 'tg', 'telegram', [account], ['reports'], tag);
    await channel(w, 'hook', 'webhook', [account], ['reports'], tag);
    await w.chain.control.setFaults({ routes: { portfolio: { error500: 1 } } });
    const since = receivers.received.length;

    await runReports(w, DUE + 5_000);

    const [email] = await sesStore({ to: reader });
    expect(email?.subject).toMatch(/^\[from stored data\] /);
    const posts = receivedBy('telegram', `-100${tag}`, since);
    expect(posts).toHaveLength(1);
    expect(telegramText(posts[0]!)).toContain('Built from stored data: the chain did not answer');
    const hooks = receivedBy('webhook', `reports-${tag}`, since);
    expect(hooks).toHaveLength(1);
    const body = JSON.parse(hooks[0]!.body) as unknown;
    expect(schema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ type: 'report.daily', data: { severity: 'warning', details: { source: 'stored' } } });
  }, 120_000);

  it("posts a digest once per channel as a text table, each channel seeing only its own accounts' rows", async () => {
    const w = await chatWorld();
    const tag = `${Date.now() % 1_000_000}3`;
    const desk = uniqueEmail('chat-digest');
    const first = await track(w, [desk], 'alpha desk');
    const second = await track(w, [desk], 'beta desk');
    await saveRecipient(
      w.repos.recipients,
      { ...defaultRecipientSettings(desk), mode: 'digest', reportAt: '08:00', timezone: 'Europe/Berlin' },
      [first, second],
      await w.repos.recipients.get(desk),
      w.clock.now(),
    );
    await channel(w, 'tg', 'telegram', [first, second], ['reports'], tag);
    await channel(w, 'hook', 'webhook', [second], ['reports'], tag);
    const since = receivers.received.length;

    await runReports(w, DUE + 5_000);

    expect(await sesStore({ to: desk })).toHaveLength(1);
    const posts = receivedBy('telegram', `-100${tag}`, since);
    expect(posts, 'one message for the channel, not one per account').toHaveLength(1);
    const text = telegramText(posts[0]!);
    // Sent on 2 Jun, the digest covers 1 Jun (as its email's subject says): so do its header and its id.
    expect(text).toContain('Daily digest: 2 accounts, 2025-06-01');
    expect(text).toMatch(/Account +Equity +PnL +Return +DD now +Alerts +Expiring/);
    expect(text).toContain('alpha desk');
    expect(text).toContain('beta desk');
    expect(JSON.parse(posts[0]!.body)).toMatchObject({ text: expect.stringContaining('<pre>') as unknown });
    const hooks = receivedBy('webhook', `reports-${tag}`, since);
    expect(hooks).toHaveLength(1);
    const body = JSON.parse(hooks[0]!.body) as { data: { table: { rows: string[][] } } };
    expect(schema.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      type: 'report.digest',
      id: expect.stringMatching(/^daily-digest:2025-06-01:[0-9a-f]{16}$/),
      data: { details: { localDate: '2025-06-01' } },
    });
    expect(body.data.table.rows.map((r) => r[0])).toEqual(['beta desk']);
    expect(hooks[0]!.body).not.toContain(desk);

    await runReports(w, DUE + 10 * 60_000);
    expect(receivers.received.slice(since).filter((r) => r.status < 300)).toHaveLength(2);
  }, 120_000);

  it("a long digest keeps Telegram's 4,096 characters: as many rows as fit, and a note of how many more the email has", async () => {
    const rows = digestRowsOf(250, (i) => `desk <${i}> & co`);
    const notice = presentDigest(rows, {
      id: 'daily-digest:long',
      span: 'day',
      reportDate: '2026-11-23',
      period: localDayBounds('2026-11-22', 'UTC'),
      timeZone: 'UTC',
      generatedAt: REPORT_NOW,
    });
    const deps = receiverSenderDeps(receivers, { TG: TOKEN });
    const chat = `-100${Date.now() % 1_000_000}4`;
    const outcome = await sendToChannel(deps, { type: 'telegram', secret: 'env:TG', url: null, chatId: chat }, notice, 'long-1', 0, {
      chart: null,
      part: 'whole',
    });
    expect(outcome).toMatchObject({ kind: 'delivered' });
    const [post] = receivers.received.filter((r) => r.destination.includes(chat));
    const text = telegramText(post!);
    expect(text.length).toBeLessThanOrEqual(4_096);
    const shown = text.split('\n').filter((l) => l.startsWith('desk <')).length;
    expect(shown).toBeGreaterThan(20);
    expect(text.split('\n').at(-1)).toBe(omittedNote(250 - shown));
  });
});
