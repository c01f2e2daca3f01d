import { describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../../functions/domain/webhookRetrySchedule';
import { series, simulateAlarm, type RawPoint, type SimulatedAlarm } from '../../../infra/monitoring/alarmSimulator';
import { CHANNEL_HELD_BACK_ALARM } from '../../../infra/stacks/MonitoringStack';
import { stackAlarms } from '../../../bench/chaosAlarms';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** SQS's longest delay: a longer wait is held back this often (`ChannelJobsHeldBack` each time). */
const HOLD = 15 * MINUTE;
/** The dimensions of the channel worker's metrics on devnet. */
const CHANNEL_WORKER = [
  { Name: 'service', Value: 'channel-worker' },
  { Name: 'stage', Value: 'devnet' },
];

/**
 * The `ChannelJobsHeldBack` datapoints (seconds) of webhook notices raised at `raisedAt`, each
 * failing while the endpoint is down (`down(at)`) and retried on the webhook schedule: a wait past
 * 15 minutes is held back every 15 minutes until its time, as the channel worker does.
 */
function heldBack(raisedAt: readonly number[], down: (at: number) => boolean): RawPoint[] {
  const points: RawPoint[] = [];
  for (const start of raisedAt) {
    let at = start;
    for (const delayMs of WEBHOOK_RETRY_DELAYS_MS) {
      if (!down(at)) break;
      const wait = delayMs / 1_000;
      for (let held = HOLD; held < wait; held += HOLD) points.push({ at: at + held, value: 1 });
      at += wait;
    }
  }
  return points.sort((a, b) => a.at - b.at);
}

describe('channel alarms (monitoring stack synthesized, simulated with the alarm simulator)', () => {
  const alarms = stackAlarms().alarms;
  const named = (id: string): SimulatedAlarm => {
    const found = alarms.find((a) => a.AlarmName === id);
    if (!found) throw new Error(`no alarm ${id}`);
    return found;
  };

  it('WebhookRetriesExhausted: at the first webhook marked broken at the end of its schedule, and not otherwise', () => {
    const alarm = named('WebhookRetriesExhausted');
    expect(alarm).toMatchObject({ Namespace: 'PortfolioSentinel', MetricName: 'WebhookRetriesExhausted', Statistic: 'Sum', Threshold: 1 });
    expect(alarm).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(alarm.Dimensions).toEqual(expect.arrayContaining(CHANNEL_WORKER));
    expect(simulateAlarm(alarm, [], DAY)).not.toContain('ALARM');
    const states = simulateAlarm(alarm, [{ at: 10 * HOUR + 30, value: 1 }], DAY);
    expect(states.indexOf('ALARM') * 300, 'in the five minutes it happened').toBe(10 * HOUR);
    expect(states.at(-1), 'clears after').toBe('OK');
  });

  it('ChannelJobsHeldBack: many notices waiting hours for a failing webhook fire it within two hours; one failing notice, an announced wait or a 10-minute outage does not', () => {
    const alarm = named('ChannelJobsHeldBack');
    expect(alarm).toMatchObject({
      MetricName: 'ChannelJobsHeldBack',
      Statistic: 'Sum',
      Period: CHANNEL_HELD_BACK_ALARM.periodMinutes * MINUTE,
      Threshold: CHANNEL_HELD_BACK_ALARM.jobs,
      EvaluationPeriods: CHANNEL_HELD_BACK_ALARM.periods,
      DatapointsToAlarm: CHANNEL_HELD_BACK_ALARM.periods,
      TreatMissingData: 'notBreaching',
    });
    expect(alarm.Dimensions).toEqual(expect.arrayContaining(CHANNEL_WORKER));
    const period = CHANNEL_HELD_BACK_ALARM.periodMinutes * MINUTE;
    // A busy webhook: an alert every 2 minutes all day; its endpoint is down from 06:00 to 12:00.
    const busy = series(1, 2 * MINUTE, DAY).map((p) => p.at);
    const states = simulateAlarm(
      alarm,
      heldBack(busy, (at) => at >= 6 * HOUR && at < 12 * HOUR),
      2 * DAY,
    );
    const fired = states.indexOf('ALARM');
    expect(fired, 'fires').toBeGreaterThan(-1);
    expect((fired + 1) * period - 6 * HOUR, 'within two hours of the outage').toBeLessThanOrEqual(2 * HOUR);
    expect((fired + 1) * period).toBeGreaterThan(6 * HOUR);
    expect(states.at(-1), 'clears once the waiting notices have had their retry').toBe('OK');

    // One notice failing throughout its 27 h (the end is WebhookRetriesExhausted), or a few.
    expect(
      simulateAlarm(
        alarm,
        heldBack([HOUR], () => true),
        2 * DAY,
      ),
    ).not.toContain('ALARM');
    expect(
      simulateAlarm(
        alarm,
        heldBack([HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR, 5 * HOUR], () => true),
        2 * DAY,
      ),
    ).not.toContain('ALARM');
    // The busy webhook down for ten minutes: its notices are back within their 30-minute retry.
    expect(
      simulateAlarm(
        alarm,
        heldBack(busy, (at) => at >= 6 * HOUR && at < 6 * HOUR + 10 * MINUTE),
        2 * DAY,
      ),
    ).not.toContain('ALARM');
    // A chat announcing an hour's wait holds its one job back three times.
    expect(
      simulateAlarm(
        alarm,
        series((at) => (at >= HOUR && at < 2 * HOUR && at % HOLD === 0 ? 1 : undefined), MINUTE, DAY),
        DAY,
      ),
    ).not.toContain('ALARM');
  });
});
