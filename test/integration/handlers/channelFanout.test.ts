import { beforeAll, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../../../functions/channels/webhook/webhookSignature';
import { accountSettingsSchema } from '../../../functions/domain/account';
import { newTrackedAccount } from '../../../functions/domain/trackedAccount';
import type { FanOutEvent, ReportFanOut } from '../../../functions/messages/channelJob';
import { presentReport } from '../../../functions/notices/reportPresenter';
import { memoryCounters } from '../../../functions/shared/observability';
import { recordingLog } from '../../support/recordingLog';
import { reportModelOf } from '../../support/report/chatReportFixtures';
import { channelWorld } from '../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent } from '../../support/channels/noticeFixtures';

/** `ACCOUNT`'s daily report as the report worker publishes it for chat: presented once, no link. */
function reportJob(id: string, address: string = ACCOUNT): ReportFanOut {
  return { report: { notice: presentReport(reportModelOf('fan-out desk', { address }), { id, chart: false, preferencesUrl: null }) } };
}

/** A drawdown alert of `ACCOUNT` as producers publish it (`notifyPublisher`), under its own event id. */
function published(name: string): FanOutEvent {
  return { fanout: { ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:${name}` } };
}

/**
 * The fan-out as its own consumer: a published event on the fan-out queue becomes one job per
 * channel taking it, on the channel queue; a `fanout` job found on the channel queue (queued there
 * by a producer deployed before the fan-out queue existed) is passed on, not lost and not dropped
 * as malformed. Real parts: DynamoDB Local, the local webhook receiver, the deployed fan-out and
 * channel worker on in-process queues.
 */
describe('channel-fanout', () => {
  const world = channelWorld({ env: { FANOUT_HOOK: newWebhookSecret(), FANOUT_PD: 'p'.repeat(32) } });

  beforeAll(async () => {
    await world.repos().accounts.create(newTrackedAccount(accountSettingsSchema.parse({ address: ACCOUNT, emails: ['fanout@example.com'] }), Date.now()));
    await world.channel({ name: 'fanout-hook', type: 'webhook', secret: 'env:FANOUT_HOOK', url: world.receivers.webhookUrl('fanout-hook') });
    await world.channel({
      name: 'reports-hook',
      type: 'webhook',
      secret: 'env:FANOUT_HOOK',
      url: world.receivers.webhookUrl('reports-hook'),
      categories: ['reports'],
    });
    await world.channel({
      name: 'muted-hook',
      type: 'webhook',
      secret: 'env:FANOUT_HOOK',
      url: world.receivers.webhookUrl('muted-hook'),
      categories: ['reports'],
    });
    await world.channel({ name: 'reports-pager', type: 'pagerduty', secret: 'env:FANOUT_PD', categories: ['reports', 'security'] });
    await world.repos().alerts.setChannelMutes(ACCOUNT, 'muted-hook', ['reports']);
  });

  const reportPosts = (destination: string, id: string) =>
    world.to(destination).filter((r) => r.status < 300 && r.headers['webhook-id'] === `${id}#channel:${destination}`);

  it("routes a report's chat notice to the channels taking the account's reports, each with its own Preferences link; a redelivered job sends nothing twice", async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    const id = `daily-report:${ACCOUNT}:routed`;
    await world.fanOutQueueOf(queue).send([{ id: 'r1', body: reportJob(id) }]);
    await world.drain(queue);
    const [post] = reportPosts('reports-hook', id);
    expect(post, 'the reports channel gets it once').toBeDefined();
    const body = JSON.parse(post!.body) as { type: string; data: { links: { action: string; url: string }[] } };
    expect(body.type).toBe('report.daily');
    expect(body.data.links.map((l) => l.action)).toEqual(['preferences']);
    expect(
      world.to('fanout-hook').filter((r) => r.body.includes(id)),
      'a channel not routed reports gets nothing',
    ).toEqual([]);
    expect(
      world.to('muted-hook').filter((r) => r.body.includes(id)),
      "a chat that muted the account's reports gets nothing",
    ).toEqual([]);
    expect(
      world.receivers.received.filter((r) => r.kind === 'pagerduty' && r.body.includes(id)),
      'a pager never gets a report',
    ).toEqual([]);
    expect(counters.totals.get('ReportChannelJobs')).toBe(1);

    await world.fanOutQueueOf(queue).send([{ id: 'r1-again', body: reportJob(id) }]);
    await world.drain(queue);
    expect(reportPosts('reports-hook', id), 'the delivery id holds').toHaveLength(1);
    expect(counters.totals.get('ReportChannelJobs')).toBe(2);
    expect(counters.totals.get('ChannelJobDuplicates')).toBe(1);
    expect(counters.totals.get('MalformedMessages') ?? 0).toBe(0);
  });

  it('queues nothing for the report of an account it does not track', async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    const stranger = '0x00000000000000000000000000000000000f4a12';
    await world.fanOutQueueOf(queue).send([{ id: 'r2', body: reportJob(`daily-report:${stranger}:gone`, stranger) }]);
    await world.drain(queue);
    expect(counters.totals.get('MalformedMessages') ?? 0, 'read as a report job, not dropped').toBe(0);
    expect(counters.totals.get('ReportChannelJobs') ?? 0).toBe(0);
    expect(queue.counts().visible + queue.counts().deadLettered).toBe(0);
  });

  it('drops a malformed report job with its first issue logged: no job queued, no half of it routed', async () => {
    const counters = memoryCounters();
    const { log, lines } = recordingLog();
    const queue = world.worker({ counters, log });
    const id = `daily-report:${ACCOUNT}:malformed`;
    const good = reportJob(id);
    const linked = { report: { notice: { ...good.report.notice, links: [{ label: 'Preferences', url: 'https://example.com/p', action: 'preferences' }] } } };
    const alert = { report: { notice: { ...good.report.notice, category: 'drawdown' } } };
    await world.fanOutQueueOf(queue).send([
      { id: 'm1', body: linked as unknown as ReportFanOut },
      { id: 'm2', body: alert as unknown as ReportFanOut },
    ]);
    await world.drain(queue);
    expect(counters.totals.get('MalformedMessages')).toBe(2);
    const reasons = lines.filter((l) => l.message === 'malformed channel fan-out dropped').map((l) => l.fields?.['reason']);
    expect(reasons).toEqual([expect.stringMatching(/^report\.notice\.links: /), expect.stringMatching(/^report\.notice\.category: /)]);
    expect(counters.totals.get('ReportChannelJobs') ?? 0).toBe(0);
    expect(world.to('reports-hook').filter((r) => r.body.includes(id))).toEqual([]);
  });

  const about = (name: string) => world.to('fanout-hook').filter((r) => r.status < 300 && r.body.includes(`:fired:${name}`));

  it('expands a published event into the jobs of the channels taking it; a redelivered event sends nothing twice', async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    const fanOutQueue = world.fanOutQueueOf(queue);
    await fanOutQueue.send([{ id: 'e1', body: published('expanded') }]);
    await fanOutQueue.drain();
    expect(queue.counts().visible, 'one job, on the channel queue').toBe(1);
    expect(about('expanded'), 'nothing sent by the fan-out itself').toEqual([]);
    await world.drain(queue);
    expect(about('expanded')).toHaveLength(1);

    await fanOutQueue.send([{ id: 'e1-again', body: published('expanded') }]);
    await world.drain(queue);
    expect(about('expanded'), 'the delivery id holds').toHaveLength(1);
    expect(counters.totals.get('ChannelEventsFannedOut')).toBe(2);
    expect(counters.totals.get('MalformedMessages') ?? 0).toBe(0);
  });

  it('counts an event of an account it does not track as skipped, and queues nothing', async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    const stranger = '0x00000000000000000000000000000000000f4a11';
    await world
      .fanOutQueueOf(queue)
      .send([{ id: 'e2', body: { fanout: { ...drawdownEvent, account: stranger, eventId: `drawdown:${stranger}:20:fired:x` } } }]);
    await world.drain(queue);
    expect(counters.totals.get('ChannelEventsSkipped')).toBe(1);
    expect(counters.totals.get('ChannelJobsQueued') ?? 0).toBe(0);
  });

  it('passes a fanout job found on the channel queue on to the fan-out queue, which delivers it once: nothing lost, nothing malformed', async () => {
    const counters = memoryCounters();
    const queue = world.worker({ counters });
    await queue.send([{ id: 'stray', body: published('stray') }]);
    await queue.drain();
    expect(world.fanOutQueueOf(queue).counts().visible, 'passed on, unchanged').toBe(1);
    expect(about('stray'), 'not expanded by the channel worker').toEqual([]);
    expect(counters.totals.get('ChannelFanOutsForwarded')).toBe(1);

    await world.drain(queue);
    expect(about('stray')).toHaveLength(1);
    expect(counters.totals.get('MalformedMessages') ?? 0).toBe(0);
    expect(queue.counts().deadLettered + world.fanOutQueueOf(queue).counts().deadLettered).toBe(0);
  });

  it('delivers a stray fanout job within one drain in rounds, though the fan-out queue is drained before the channel queue', async () => {
    const queue = world.worker();
    await queue.send([{ id: 'late', body: published('late') }]);
    // Round 1: fan-out queue (empty), channel queue (passes it on); round 2: fan-out (queues its job); round 3: channel.
    await world.drain(queue);
    expect(about('late')).toHaveLength(1);
  });
});
