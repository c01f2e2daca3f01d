import { describe, expect, it } from 'vitest';
import { PAGERDUTY_BACKOFF_MS } from '../../../functions/channels/pagerduty/pagerdutyChannel';
import { RECEIVER_RATES } from '../../../local/receivers/chatReceivers';
import { channelWorld } from '../../support/channels/channelWorld';
import { cliRunner } from '../../support/cli/cliHarness';

const START = Date.UTC(2030, 5, 3, 9);
const KEY = 'Rpagerduty0test0key0000000000000';
const BROKEN = { kind: 'broken', reason: 'HTTP 404: not found', since: START - 3_600_000 } as const;

/**
 * `sentinel channels test` on a PagerDuty channel against the local Events API v2 receiver (which
 * answers past 120 events a minute per routing key with a bare 429, as PagerDuty does), on a
 * simulated clock: the CLI's waits, the receiver's window and the repositories run on it.
 */
describe('channels test on PagerDuty (local Events API receiver)', () => {
  const world = channelWorld({ start: START });
  process.env['PD_CHANNEL_TEST_KEY'] = KEY;
  const cli = (eventsUrl: string) =>
    cliRunner({ SENTINEL_TABLE_PREFIX: world.tables.prefix, PAGERDUTY_EVENTS_URL: eventsUrl }, world.clock.now, undefined, world.clock.sleep);
  const broken = (name: string) => world.channel({ name, type: 'pagerduty', secret: 'env:PD_CHANNEL_TEST_KEY', state: BROKEN });
  const events = () => world.to(KEY);

  it('PAGERDUTY_EVENTS_URL given as the full endpoint, as the docs show it, reaches the Events API and clears the broken state', async () => {
    await broken('pager-endpoint');
    const run = await cli(`${world.receivers.pagerdutyEventsUrl}/v2/enqueue/`)('channels', 'test', 'pager-endpoint');
    expect(run).toMatchObject({ code: 0, stdout: 'channel pager-endpoint: delivered (HTTP 202)\n' });
    expect(events().map((r) => [JSON.parse(r.body).event_action, r.status])).toEqual([
      ['trigger', 202],
      ['resolve', 202],
    ]);
    expect(await world.repos().channels.get('pager-endpoint')).toMatchObject({ state: { kind: 'ok' }, lastDelivery: { outcome: 'delivered' } });
  });

  it("after a bare 429 it waits out PagerDuty's 30 s back-off, saying so, and exits 0 once the event lands", async () => {
    await broken('pager-busy');
    // Other senders used up the routing key's 120 events of this minute.
    for (let i = events().length; i < RECEIVER_RATES.pagerduty.count; i++) {
      const body = { routing_key: KEY, event_action: 'trigger', dedup_key: `busy-${i}`, payload: { summary: 'busy', source: 'elsewhere', severity: 'info' } };
      expect((await fetch(`${world.receivers.pagerdutyEventsUrl}/v2/enqueue`, { method: 'POST', body: JSON.stringify(body) })).status).toBe(202);
    }
    const before = events().length;
    const run = await cli(world.receivers.pagerdutyEventsUrl)('channels', 'test', 'pager-busy');
    expect(run).toMatchObject({ code: 0, stdout: 'channel pager-busy: delivered (HTTP 202)\n' });
    const waits = `channel pager-busy: throttled (HTTP 429), retrying in ${PAGERDUTY_BACKOFF_MS / 1000} s\n`;
    // The window holds the 120 events for a minute: two back-offs, then the event lands.
    expect(run.stderr).toBe(waits.repeat(2));
    expect(
      events()
        .slice(before)
        .map((r) => r.status),
    ).toEqual([429, 429, 202, 202]);
    expect(await world.repos().channels.get('pager-busy')).toMatchObject({ state: { kind: 'ok' }, lastDelivery: { outcome: 'delivered' } });
  });

  it('a destination still throttling after the waits refused nothing: exit 1, and the channel is not left broken', async () => {
    await broken('pager-throttled');
    world.receivers.script(
      KEY,
      Array.from({ length: 10 }, () => ({ status: 429 })),
    );
    const run = await cli(world.receivers.pagerdutyEventsUrl)('channels', 'test', 'pager-throttled');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^channel pager-throttled: throttled \(HTTP 429\), retrying in 30 s\n/);
    expect(run.stderr).toMatch(/sentinel: channel pager-throttled: throttled \(HTTP 429, .*\): still throttled after 120 s of announced waits; .*not broken/);
    expect(await world.repos().channels.get('pager-throttled')).toMatchObject({ state: { kind: 'ok' } });
  });
});
