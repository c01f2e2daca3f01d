import { beforeAll, describe, expect, it } from 'vitest';
import { channelTypeMetric } from '../../../functions/services/channels/channelTypeMetric';
import { SharedDestinationPacer } from '../../../functions/services/channels/sharedDestinationPacer';
import { memoryCounters } from '../../../functions/shared/observability';
import { PaceRepository } from '../../../functions/store/paceRepository';
import { RECEIVER_RATES } from '../../../local/receivers/chatReceivers';
import { channelWorld } from '../../support/channels/channelWorld';
import { ACCOUNT, drawdownEvent, noticeOf } from '../../support/channels/noticeFixtures';

/**
 * Pacing shared by channel-worker instances (DynamoDB Local, the local receivers answering 429
 * past each API's rate, the real clock): two workers, each with its own queue and its own
 * in-process pacer, as two Lambda instances, send to one Slack webhook.
 */
describe('destination pacing shared by worker instances', () => {
  const world = channelWorld();
  const { tables, repos } = world;
  beforeAll(() => {
    world.env['SLACK'] = world.receivers.slackUrl('T7/B7/shared');
  });

  const counters = memoryCounters();
  const instance = () => world.worker({ counters, pacer: new SharedDestinationPacer(new PaceRepository(tables.client, tables.prefix)) });

  it('two instances sending to one Slack webhook never exceed its rate: no 429, every notice once', async () => {
    await world.channel({ name: 'desk', type: 'slack', secret: 'env:SLACK' });
    const notices = Array.from({ length: 6 }, (_, i) =>
      noticeOf({ ...drawdownEvent, eventId: `drawdown:${ACCOUNT}:20:fired:shared-${i}`, at: drawdownEvent.at + i }),
    );
    const [a, b] = [instance(), instance()];
    await a.send(notices.slice(0, 3).map((notice, i) => ({ id: `a${i}`, body: world.job('desk', notice) })));
    await b.send(notices.slice(3).map((notice, i) => ({ id: `b${i}`, body: world.job('desk', notice) })));
    await Promise.all([a.drain(), b.drain()]);

    const got = world.to('T7/B7/shared');
    expect(
      got.filter((r) => r.status === 429),
      'no instance sent past the rate',
    ).toEqual([]);
    const delivered = got.filter((r) => r.status === 200);
    expect(delivered).toHaveLength(notices.length);
    // What the receiver enforces, stated on its own record: one message per window.
    for (let i = 1; i < delivered.length; i++) expect(delivered[i]!.at - delivered[i - 1]!.at).toBeGreaterThanOrEqual(RECEIVER_RATES.slack.windowMs);
    for (const notice of notices) expect((await repos().deliveries.get(`${notice.id}#channel:desk`))?.status, notice.id).toBe('sent');
    expect(counters.totals.get(channelTypeMetric('Deliveries', 'slack')), 'counted per channel type (the dashboard)').toBe(notices.length);
  }, 60_000);

  it('one slot, two instances: exactly one grant; a reservation goes after it; an announced wait holds both', async () => {
    const [one, two] = [new PaceRepository(tables.client, tables.prefix), new PaceRepository(tables.client, tables.prefix)];
    const t = 1_000_000;
    const grants = await Promise.all([one.grant('dest-x', t, 1_000, false), two.grant('dest-x', t, 1_000, false)]);
    expect(grants.filter((g) => g.kind === 'go')).toHaveLength(1);
    expect(grants.find((g) => g.kind === 'wait')).toEqual({ kind: 'wait', ms: 1_000 });
    const slots = await Promise.all([one.reserve('dest-x', t + 10, 1_000), two.reserve('dest-x', t + 10, 1_000)]);
    expect(slots.sort((x, y) => x - y)).toEqual([990, 1_990]);
    expect(await two.grant('dest-x', t + 1_000, 1_000, true), 'a reserved send at its slot').toEqual({ kind: 'go' });
    await one.block('dest-x', t + 30_000);
    expect(await two.grant('dest-x', t + 5_000, 1_000, true)).toEqual({ kind: 'wait', ms: 25_000 });
    expect(await one.reserve('dest-x', t + 5_000, 1_000), 'after the announced wait').toBe(25_000);
  });
});
