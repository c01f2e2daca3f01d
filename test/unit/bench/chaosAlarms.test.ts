import { describe, expect, it } from 'vitest';
import { alarmSpans, evaluateAlarms, metricLog, recordingCounters, type StackAlarm } from '../../../bench/chaosAlarms';
import { memoryCounters } from '../../../functions/shared/observability';

const MINUTE = 60_000;
const START = Date.parse('2025-01-15T00:00:00Z');
const DAY = 24 * 60 * MINUTE;

/** The shape `MonitoringStack` synthesizes for `ChainPollFailures` (metric math over two custom metrics). */
const custom = (MetricName: string) => ({
  Namespace: 'PortfolioSentinel',
  MetricName,
  Dimensions: [
    { Name: 'service', Value: 'collect' },
    { Name: 'stage', Value: 'devnet' },
  ],
});
const chainAlarm: StackAlarm = {
  AlarmName: 'ChainPollFailures',
  Metrics: [
    { Id: 'errors', MetricStat: { Metric: custom('PollErrors'), Period: 300, Stat: 'Sum' }, ReturnData: false },
    { Id: 'polls', MetricStat: { Metric: custom('Polls'), Period: 300, Stat: 'Sum' }, ReturnData: false },
    { Id: 'expr_1', Expression: '100 * FILL(errors, 0) / polls' },
  ],
  EvaluationPeriods: 3,
  DatapointsToAlarm: 2,
  Threshold: 50,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
  TreatMissingData: 'ignore',
};
const lambdaAlarm: StackAlarm = {
  AlarmName: 'CollectErrors',
  Namespace: 'AWS/Lambda',
  MetricName: 'Errors',
  Period: 300,
  Statistic: 'Sum',
  EvaluationPeriods: 1,
  Threshold: 1,
  ComparisonOperator: 'GreaterThanOrEqualToThreshold',
};

describe('evaluateAlarms (the chaos run)', () => {
  it('evaluates the chain-outage alarm on the Polls and PollErrors the run counted at simulated times: in ALARM during the outage, OK after', () => {
    const log = metricLog();
    let now = START;
    const counters = recordingCounters(memoryCounters(), log, () => now);
    // Ten polls a minute all day; every one fails from 07:30 to 08:30.
    for (let minute = 0; minute < 24 * 60; minute++) {
      now = START + minute * MINUTE;
      for (let i = 0; i < 10; i++) {
        counters.count('Polls');
        if (minute >= 450 && minute < 510) counters.count('PollErrors');
      }
    }
    const [run] = evaluateAlarms([chainAlarm], log, START, DAY);
    const spans = alarmSpans(run!);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.fromMs).toBeGreaterThan(450 * MINUTE);
    expect(spans[0]!.fromMs).toBeLessThanOrEqual(465 * MINUTE);
    expect(spans[0]!.toMs).toBeGreaterThan(510 * MINUTE);
    expect(spans[0]!.toMs).toBeLessThanOrEqual(525 * MINUTE);
  });

  it('leaves an alarm whose metric the run does not emit unevaluated', () => {
    expect(evaluateAlarms([lambdaAlarm], metricLog(), START, DAY)[0]!.states).toBeNull();
  });
});
