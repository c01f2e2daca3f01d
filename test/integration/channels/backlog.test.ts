import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRecord, ChannelType } from '../../../functions/domain/channel';
import { spacingOf } from '../../../functions/channels/channelRegistry';
import { COMBINE_AFTER_MS } from '../../../functions/domain/destinationPacer';
import { memoryCounters } from '../../../functions/shared/observability';
import { channelWorld } from '../../support/channels/channelWorld';
import { digestRowsOf, REPORT_NOW } from '../../support/report/chatReportFixtures';
import { presentDigest } from '../../../functions/notices/digestPresenter';
import { localDayBounds } from '../../../functions/domain/localTime';
import type { Address } from '../../../functions/domain/address';
import { ACCOUNT, drawdownEvent, newDelegateEvent, noticeOf } from '../../support/channels/noticeFixtures';

const START = Date.UTC(2030, 4, 1, 9);
const TOKEN = '4242:backlog-bot';

/**
 * A backlog for a rate-limited chat is combined: DynamoDB Local, the channel worker on an
 * in-process queue and the local receivers enforcing each API's rate, on a simulated clock (the
 * queue's delays and the receivers' windows run on it, so a minute of backlog takes no minute).
 */
describe('combining a rate-limited backlog (local receivers)', () => {
  const world = channelWorld({ start: START, env: { TG: TOKEN } });
  const { repos } = world;
  beforeAll(() => {
    world.env['SLACK'] = world.receivers.slackUrl('T9/B9/backlog');
  });

  const channel = (name: string, type: ChannelType, extra: Partial<ChannelRecord> = {}) =>
    world.channel({ name, type, secret: `env:${type === 'telegram' ? 'TG' : 'SLACK'}`, ...extra });
  const worker = (counters: ReturnType<typeof memoryCounters>) => world.worker({ counters });

  const drawdowns = (n: number) =>
    Array.from({ length: n }, (_, i) => noticeOf({ ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:${i}`, at: drawdownEvent.at + i }));
  const intruders = (n: number) => Array.from({ length: n }, (_, i) => noticeOf({ ...newDelegateEvent, eventId: `delegate:${ACCOUNT}:intruder-${i}:new` }));

  it('100 notices to one Telegram group: each reaches it once, alone or in a summary, paced below 20/min (no 429); security notices always alone', async () => {
    await channel('tg', 'telegram', { chatId: '-100900' });
    const counters = memoryCounters();
    const queue = worker(counters);
    const notices = [...drawdowns(97), ...intruders(3)];
    await queue.send(notices.map((notice, i) => ({ id: `n${i}`, body: world.job('tg', notice) })));
    await queue.drain();

    const delivered = world.receivers.received
      .filter((r) => r.destination === 'chat:-100900' && r.status === 200)
      .map((r) => (JSON.parse(r.body) as { text: string }).text);
    const summaries = delivered.filter((t) => /^<b>\d+ alerts? on/.test(t));
    const alone = delivered.length - summaries.length;
    const combined = summaries.reduce((n, t) => n + Number(/^<b>(\d+) alert/.exec(t)?.[1]), 0);
    expect(summaries.length).toBeGreaterThan(0);
    expect(
      world.receivers.received.filter((r) => r.destination === 'chat:-100900' && r.status === 429),
      'paced below the rate: no 429',
    ).toEqual([]);
    expect(alone + combined, 'nothing lost, nothing twice').toBe(notices.length);
    expect(counters.totals.get('ChannelNoticesCombined')).toBe(combined);
    // About a minute of the group's limit (20/min, below its chat's 1/s) goes one by one; the rest waits in summaries.
    expect(alone).toBeLessThanOrEqual((COMBINE_AFTER_MS / spacingOf({ type: 'telegram', chatId: '-100900' })) * 1.1 + 3 + 2);
    expect(delivered.filter((t) => t.startsWith('<b>A new delegate'))).toHaveLength(3);
    expect(summaries.join('\n')).not.toContain('A new delegate');
    for (const notice of notices) {
      expect((await repos().deliveries.get(`${notice.id}#channel:tg`))?.status, notice.id).toBe('sent');
    }
    expect(await repos().channelBacklog.entries('tg'), 'the backlog is empty').toEqual([]);
    expect(queue.counts().deadLettered).toBe(0);
  }, 240_000);

  it('parked notices take no slot: a notice after the summary goes alone, not behind the slots they would have used', async () => {
    await channel('tg-late', 'telegram', { chatId: '-100901' });
    const queue = worker(memoryCounters());
    const notices = drawdowns(60).map((n) => ({ ...n, id: `late-${n.id}` }));
    await queue.send(notices.map((notice, i) => ({ id: `l${i}`, body: world.job('tg-late', notice) })));
    await queue.drain();
    const late = { ...drawdowns(1)[0]!, id: 'late-after-summary' };
    const sentAt = world.now();
    await queue.send([{ id: 'late', body: world.job('tg-late', late) }]);
    await queue.drain();
    const delivered = await repos().deliveries.get('late-after-summary#channel:tg-late');
    expect(delivered?.status).toBe('sent');
    expect(delivered!.sentAt! - sentAt, 'within a minute of the group limit, not after the parked notices').toBeLessThanOrEqual(COMBINE_AFTER_MS);
  }, 240_000);

  it('a digest waiting behind a flood of alerts goes whole, with its table, not folded into their summary', async () => {
    const rows = digestRowsOf(3);
    const digest = presentDigest(rows, {
      id: 'daily-digest:2026-11-21:0123456789abcdef',
      span: 'day',
      reportDate: '2026-11-22',
      period: localDayBounds('2026-11-21', 'UTC'),
      timeZone: 'UTC',
      generatedAt: REPORT_NOW,
    });
    await channel('tg-desk', 'telegram', {
      chatId: '-100902',
      categories: ['drawdown', 'security', 'expiry', 'reports'],
      accounts: [ACCOUNT as Address, digest.account.address as Address],
    });
    const counters = memoryCounters();
    const queue = worker(counters);
    // A minute and more of the group's limit is queued ahead of the digest: a summary is pending when it comes.
    const alerts = drawdowns(40).map((n) => ({ ...n, id: `desk-${n.id}` }));
    await queue.send(alerts.map((notice, i) => ({ id: `d${i}`, body: world.job('tg-desk', notice) })));
    await queue.send([{ id: 'digest', body: world.job('tg-desk', digest) }]);
    await queue.drain();

    const delivered = world
      .to('chat:-100902')
      .filter((r) => r.status === 200)
      .map((r) => (JSON.parse(r.body) as { text: string }).text);
    const summaries = delivered.filter((t) => /^<b>\d+ \w+ on \d+ account/.test(t));
    expect(summaries.length, 'the alerts were combined').toBeGreaterThan(0);
    expect(
      summaries.every((t) => /^<b>\d+ alerts? on/.test(t)),
      'a summary of alerts only',
    ).toBe(true);
    const digests = delivered.filter((t) => t.includes(digest.title));
    expect(digests, 'the digest went once, as itself').toHaveLength(1);
    for (const row of rows) expect(digests[0], 'its table, every row').toContain(row.account.label);
    expect((await repos().deliveries.get(`${digest.id}#channel:tg-desk`))?.status).toBe('sent');
    const combined = summaries.reduce((n, t) => n + Number(/^<b>(\d+) alert/.exec(t)?.[1]), 0);
    expect(delivered.length - summaries.length - 1 + combined, 'every alert once').toBe(alerts.length);
    expect(await repos().channelBacklog.entries('tg-desk')).toEqual([]);
  }, 240_000);

  it('a Slack webhook announcing a long Retry-After: what waits is combined, not sent late one by one', async () => {
    await channel('desk', 'slack');
    const counters = memoryCounters();
    const queue = worker(counters);
    const wait = Math.ceil((2 * COMBINE_AFTER_MS) / 1_000);
    world.receivers.script('T9/B9/backlog', [{ status: 429, headers: { 'retry-after': String(wait) } }]);
    const notices = drawdowns(5);
    const startedAt = world.now();
    await queue.send(
      notices.map((notice, i) => ({
        id: `s${i}`,
        body: world.job('desk', { ...notice, id: `slack-${notice.id}` }),
      })),
    );
    await queue.drain();
    const got = world.to('T9/B9/backlog');
    expect(got.map((r) => r.status)).toEqual([429, 200]);
    expect(got[1]!.at - startedAt, 'not before the announced wait').toBeGreaterThanOrEqual(wait * 1_000);
    expect((JSON.parse(got[1]!.body) as { text: string }).text).toMatch(/^5 alerts on 1 account/);
  });
});
