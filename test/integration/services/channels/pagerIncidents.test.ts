import { describe, expect, it } from 'vitest';
import { memoryCounters } from '../../../../functions/shared/observability';
import { channelWorld } from '../../../support/channels/channelWorld';
import { channelDeliveryId } from '../../../../functions/domain/channelRouting';
import type { NotifyEvent } from '../../../../functions/messages/notifyMessage';
import { ACCOUNT, drawdownEvent, killSwitchFiredEvent, killSwitchRevokedEvent, noticeOf, recoveredEvent } from '../../../support/channels/noticeFixtures';

const world = channelWorld();
let serial = 0;

/** A PagerDuty channel routed to the fixtures' account, with a routing key of its own. */
async function pager(): Promise<{ name: string; routingKey: string }> {
  serial++;
  const name = `pager-${serial}`;
  const routingKey = `R${String(serial).padStart(31, '7')}`;
  world.env[`PAGER_INCIDENT_${serial}`] = routingKey;
  await world.channel({ name, type: 'pagerduty', secret: `env:PAGER_INCIDENT_${serial}` });
  return { name, routingKey };
}

/** Runs the notices through the real channel worker, one after the other, each until the queue is empty. */
async function deliver(channel: string, events: NotifyEvent[]): Promise<ReturnType<typeof memoryCounters>> {
  const counters = memoryCounters();
  const queue = world.worker({ counters });
  for (const event of events) {
    await queue.send([{ id: event.eventId, body: world.job(channel, noticeOf(event)) }]);
    await queue.drain();
  }
  return counters;
}

const actions = (routingKey: string) => world.to(routingKey).map((r) => (JSON.parse(r.body) as { event_action: string }).event_action);

/**
 * A pager is sent a `resolve` only for an incident it was sent the trigger of: the channel worker
 * against the local PagerDuty, which tracks incidents by routing key and `dedup_key`.
 */
describe('PagerDuty resolves follow triggers', () => {
  it('a recovery whose trigger never reached the pager sends nothing there (counted)', async () => {
    const { name, routingKey } = await pager();
    const counters = await deliver(name, [{ ...recoveredEvent, eventId: `${recoveredEvent.eventId}:a` }]);
    expect(actions(routingKey)).toEqual([]);
    expect(counters.totals.get('PagerDutyResolvesSkipped')).toBe(1);
    expect(world.receivers.unmatchedResolves).toEqual([]);
  });

  it('a trigger then its recovery: both sent, the incident opened and closed; a second recovery of the same incident sends nothing', async () => {
    const { name, routingKey } = await pager();
    await deliver(name, [
      { ...drawdownEvent, eventId: `${drawdownEvent.eventId}:b` },
      { ...recoveredEvent, eventId: `${recoveredEvent.eventId}:b` },
      { ...recoveredEvent, eventId: `${recoveredEvent.eventId}:b-again` },
    ]);
    expect(actions(routingKey)).toEqual(['trigger', 'resolve']);
    const incidents = [...world.receivers.incidents.values()].filter((i) => i.routingKey === routingKey);
    expect(incidents).toMatchObject([{ status: 'resolved', triggers: 1, resolves: 1 }]);
    expect(world.receivers.unmatchedResolves).toEqual([]);
  });

  it('a trigger the pager did not accept (a 400 about the event) is not resolved later', async () => {
    const { name, routingKey } = await pager();
    world.receivers.script(routingKey, [{ status: 400, body: JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors: ['x'] }) }]);
    await deliver(name, [
      { ...drawdownEvent, eventId: `${drawdownEvent.eventId}:c` },
      { ...recoveredEvent, eventId: `${recoveredEvent.eventId}:c` },
    ]);
    expect(world.to(routingKey).map((r) => r.status)).toEqual([400]);
    expect(world.receivers.unmatchedResolves).toEqual([]);
  });
});

describe('the kill switch on a pager', () => {
  it('its firing pages; its result with every key revoked sends the pager nothing, and neither the delivery record nor the history says it was sent', async () => {
    const { name, routingKey } = await pager();
    await deliver(name, [killSwitchFiredEvent, killSwitchRevokedEvent]);
    expect(actions(routingKey)).toEqual(['trigger']);
    const fired = await world.repos().deliveries.get(channelDeliveryId(killSwitchFiredEvent.eventId, name));
    expect(fired?.status).toBe('sent');
    // No record of the result: no delivery was made (`sentinel deliveries` lists none), as the desk's history shows none.
    expect(await world.repos().deliveries.get(channelDeliveryId(killSwitchRevokedEvent.eventId, name))).toBeNull();
    const { entries } = await world.repos().history.deliveries(ACCOUNT, 50, null);
    expect(entries.filter((e) => e.to === name).map((e) => [e.eventId, e.outcome])).toEqual([[killSwitchFiredEvent.eventId, 'sent']]);
  });

  it('a later firing while the first incident is still open pages again (an incident of its own); a result that left keys joins its own firing', async () => {
    const { name, routingKey } = await pager();
    const first = killSwitchFiredEvent as Extract<NotifyEvent, { kind: 'kill-switch' }>;
    const later = first.at + 86_400_000;
    const firing = {
      ...first.firing,
      asOf: later,
      action: {
        ...first.firing.action,
        outcome: { ...(first.firing.action as Extract<typeof first.firing.action, { kind: 'requested' }>).outcome, decisionId: 'd-later' },
      },
    };
    const second: NotifyEvent = { ...first, eventId: `kill-switch:${ACCOUNT.toLowerCase()}:${later}`, at: later, firing };
    const result = killSwitchRevokedEvent as Extract<NotifyEvent, { kind: 'decision-result' }>;
    const leftKeys: NotifyEvent = {
      ...result,
      eventId: 'decision-result#d-later',
      at: later + 60_000,
      result: {
        ...result.result,
        decisionId: 'd-later',
        units: result.result.units.map((u) => ({ ...u, status: 'failed', text: 'the chain refused the revocation: nonce too low' })),
      },
    };
    await deliver(name, [first, second, leftKeys]);
    expect(actions(routingKey)).toEqual(['trigger', 'trigger', 'trigger']);
    const incidents = [...world.receivers.incidents.values()].filter((i) => i.routingKey === routingKey);
    expect(incidents.map((i) => [i.dedupKey, i.status, i.triggers])).toEqual([
      [`kill-switch:${ACCOUNT.toLowerCase()}:d-fired`, 'triggered', 1],
      [`kill-switch:${ACCOUNT.toLowerCase()}:d-later`, 'triggered', 2],
    ]);
  });
});
