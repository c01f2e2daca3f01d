/**
 * Chaos run (`npm run bench:chaos [-- --accounts 500 --seed 1]`).
 *
 * One simulated day (2025-01-15, UTC) of the local pipeline `npm start` runs (`createLocalSystem`):
 * DynamoDB Local and local SES (started here on free ports), the chain simulator over HTTP (one per
 * run, same seed, generated history for every account), collect and report dispatch once a
 * simulated minute around report time (every five minutes otherwise, `tickAfter`), the in-process queues with the deployed report-worker concurrency and
 * redelivery, the deployed collect, notify and daily-report handlers. The clock is simulated
 * (`local/virtualClock.ts`): it moves when something waits (grace, backoff, queue delays, the mail
 * governor) and by a minute per scheduler tick, so DynamoDB Local and SES take no simulated time.
 *
 * The same day runs twice with the same seed: fault-free, then with the faults of
 * `CHAOS_SCHEDULE` (`bench/chaosFaults.ts`). The table compares the second with the first: curve
 * points stored, emails SES accepted per event id and recipient (reports and alerts), DLQ depth.
 * The two days run at once, each in its own process (`bench/chaosWorker.ts`), on one DynamoDB
 * Local and one local SES started here.
 */

import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { startDynamoDbLocal } from '../local/dynamodb';
import { startSesLocal } from '../local/ses';
import { parseChaosArgs, type ChaosArgs } from './chaosArgs';
import { alarmSpans, evaluateAlarms, stackAlarms, type AlarmRun, type WatchedQueues } from './chaosAlarms';
import { DAY, INTERVAL_MIX, MINUTE, START, VISIBILITY_MS, type RunResult } from './chaosDay';
import { CHAOS_SCHEDULE, PROTECTION_SCENARIO, type AcceptedEmail, type FaultWindow } from './chaosFaults';
import { tallyPoints, tallySends, type AcceptedSend } from './chaosTally';
import { percentile } from './stats';
import { INTERVAL_MS } from '../functions/domain/interval';

/** Runs one day in a child process (`bench/chaosWorker.ts`, same Node flags), so both days use the machine's cores at once. */
function runInChild(args: ChaosArgs, chaos: boolean, services: { dynamo: string; ses: string }, watched: WatchedQueues): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./chaosWorker.ts', import.meta.url), [], { serialization: 'advanced', stdio: 'inherit' });
    let result: RunResult | undefined;
    child.once('message', (message) => (result = message as RunResult));
    child.once('error', reject);
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`the ${chaos ? 'chaos' : 'fault-free'} day exited with ${code} and no result`))));
    child.send({ args, chaos, services, watched: [...watched] });
  });
}

type SendKind = 'report' | 'digest' | 'alert';
const kindOf = (eventId: string): SendKind => (/^digest/.test(eventId) ? 'digest' : /^(report|weekly|monthly)/.test(eventId) ? 'report' : 'alert');

/** A drawdown alert's occasion: its id without the stamp of the level's previous send (see `AcceptedSend.occasion`). */
const occasionOf = (eventId: string): string =>
  /^drawdown:[^:]+:[^:]+:(fired|repeated):/.test(eventId) ? eventId.slice(0, eventId.lastIndexOf(':')) : eventId;

function sendsOf(accepted: readonly AcceptedEmail[], kind: SendKind): AcceptedSend[] {
  return accepted
    .filter((a) => kindOf(a.eventId) === kind)
    .map((a) => {
      const to = [...a.destinations].sort().join(',');
      return { key: `${a.eventId}#${to}`, at: a.at, occasion: `${occasionOf(a.eventId)}#${to}` };
    });
}

/**
 * How far apart the two runs' sends of one alert occasion may be and still be the same alert: the
 * outage, then one interval of the slowest accounts (4 h: a poll that failed during the outage is
 * made at the account's next due time, whose backfill fires the level, saying when it crossed).
 */
const ALERT_TOLERANCE_MS = 60 * MINUTE + Math.max(...INTERVAL_MIX.map((m) => INTERVAL_MS[m.interval]));

const iso = (ms: number | undefined): string => (ms === undefined ? '-' : new Date(ms).toISOString().slice(5, 16));
const seconds = (ms: number): string => (Number.isFinite(ms) ? (ms / 1000).toFixed(0) : '-');
const hhmm = (ms: number): string => new Date(START + ms).toISOString().slice(11, 16);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function sendRows(base: RunResult, chaos: RunResult, kind: SendKind, plural: string): string[][] {
  const tolerance = kind === 'alert' ? ALERT_TOLERANCE_MS : Number.POSITIVE_INFINITY;
  const tally = tallySends(sendsOf(base.accepted, kind), sendsOf(chaos.accepted, kind), tolerance);
  const self = tallySends(sendsOf(base.accepted, kind), sendsOf(base.accepted, kind), tolerance);
  const late = `${seconds(percentile(tally.lateMs, 50))} / ${seconds(percentile(tally.lateMs, 99))} / ${seconds(tally.lateMs.at(-1) ?? Number.NaN)}`;
  return [
    [`${plural} (event id x recipient)`, `${self.expected} sent, ${self.duplicated} dup`, `${tally.expected - tally.missing + tally.extra} sent`],
    [`${plural} missing / duplicated / extra`, '-', `${tally.missing} / ${tally.duplicated} / ${tally.extra}`],
    [`${plural} late vs fault-free p50 / p99 / max (s)`, '-', late],
  ];
}

const callsPer = (r: RunResult): string =>
  `${r.calls.perIdleTick.toFixed(1)} (${r.calls.idleTicks} ticks) / ${r.calls.perPoll.toFixed(1)} (${r.calls.polls} polls)`;

function report(base: RunResult, chaos: RunResult): string {
  const points = tallyPoints(base.points, chaos.points);
  const dlq = (r: RunResult) =>
    `${r.deadLettered.collect + r.deadLettered.notify + r.deadLettered.report} (collect ${r.deadLettered.collect}, notify ${r.deadLettered.notify}, report ${r.deadLettered.report})`;
  return table(
    ['measure', 'fault-free', 'chaos'],
    [
      ['curve points stored', String(points.expected), String(points.expected - points.lost)],
      ['curve points lost / duplicated', '-', `${points.lost} / ${points.duplicated}`],
      ...sendRows(base, chaos, 'report', 'reports'),
      ...sendRows(base, chaos, 'digest', 'digests'),
      ['reports and digests built from stored data', String(base.fromStoredData), String(chaos.fromStoredData)],
      ...sendRows(base, chaos, 'alert', 'alerts'),
      ['DLQ depth at the end', dlq(base), dlq(chaos)],
      ['SES sends throttled / DynamoDB writes throttled', `${base.sesThrottled} / ${base.dynamoThrottled}`, `${chaos.sesThrottled} / ${chaos.dynamoThrottled}`],
      ['real time / DynamoDB calls', `${base.realSeconds.toFixed(0)} s / ${base.dynamoCalls}`, `${chaos.realSeconds.toFixed(0)} s / ${chaos.dynamoCalls}`],
      ['DynamoDB calls per idle tick / per curve poll', callsPer(base), callsPer(chaos)],
    ],
  );
}

/** The faults a span overlaps. */
function faultsDuring(span: { fromMs: number; toMs: number | null }, keyServiceWindow: FaultWindow | null): string {
  const s = CHAOS_SCHEDULE;
  const windows: [string, number, number][] = [
    ['chain down', s.chainDown.fromMs, s.chainDown.toMs],
    ['chain slow', s.chainSlow.fromMs, s.chainSlow.toMs],
    ['SES throttled', s.sesThrottle.fromMs, s.sesThrottle.toMs],
    ['DynamoDB throttled', s.dynamoThrottle.fromMs, s.dynamoThrottle.toMs],
    ...(keyServiceWindow ? [['key service down', keyServiceWindow.fromMs, keyServiceWindow.toMs] as [string, number, number]] : []),
    ['worker hung', s.hangAt, s.hangAt + VISIBILITY_MS + MINUTE],
  ];
  // An alarm trails its fault by its evaluation periods: a span is matched to faults that began before it ended, within the hour before it began.
  const to = span.toMs ?? DAY;
  const hits = windows.filter(([, from, until]) => from < to && until + 60 * MINUTE > span.fromMs).map(([name]) => name);
  return hits.length > 0 ? hits.join(', ') : 'none';
}

/** The protection scenario in both days: what became of each kill switch's decision, and whether each was told once. */
function protectionTable(base: RunResult, chaos: RunResult): string {
  const row = (label: string, value: (r: RunResult) => string): string[] => [label, value(base), value(chaos)];
  const p = (r: RunResult) => r.protection;
  return table(
    ['protection scenario', 'fault-free', 'chaos'],
    [
      row('armed accounts crossing together / kill switches fired', (r) => `${p(r).accounts} / ${p(r).decisions}`),
      row(
        'decisions revoked / refused by the breaker / refused otherwise / failed / not settled',
        (r) => `${p(r).revoked} / ${p(r).refusedByBreaker} / ${p(r).refused} / ${p(r).failed} / ${p(r).unsettled}`,
      ),
      row('keys revoked / keys signed twice', (r) => `${p(r).keysRevoked} / ${p(r).keysSignedTwice}`),
      row('decisions told (result email accepted) / told twice', (r) => `${p(r).told} / ${p(r).toldTwice}`),
      row(
        'after the loss showed: first / last firing, last result (s)',
        (r) =>
          `${seconds(p(r).firstFiredAfterMs ?? Number.NaN)} / ${seconds(p(r).lastFiredAfterMs ?? Number.NaN)}, ${seconds(p(r).lastResultAfterMs ?? Number.NaN)}`,
      ),
      row('key service down (chaos)', (r) => (r.keyServiceDown === null ? '-' : `${hhmm(r.keyServiceDown.fromMs)}-${hhmm(r.keyServiceDown.toMs)}`)),
      row('decision units dead-lettered', (r) => String(r.decisionsDeadLettered)),
    ],
  );
}

function alarmTable(base: readonly AlarmRun[], chaos: readonly AlarmRun[], keyServiceWindow: FaultWindow | null): string {
  const spans = (r: AlarmRun | undefined) => (r ? alarmSpans(r) : []);
  const show = (r: AlarmRun | undefined) => {
    const list = spans(r);
    return list.length === 0 ? 'OK all day' : list.map((x) => `ALARM ${hhmm(x.fromMs)}-${x.toMs === null ? 'end (not cleared)' : hhmm(x.toMs)}`).join(', ');
  };
  const evaluated = chaos.filter((r) => r.states !== null);
  const fired = evaluated.filter((r) => spans(r).length > 0 || spans(base.find((b) => b.alarm === r.alarm)).length > 0);
  const rows = fired.map((r) => {
    const b = base.find((x) => x.alarm === r.alarm);
    return [
      r.alarm,
      show(b),
      show(r),
      spans(r)
        .map((span) => faultsDuring(span, keyServiceWindow))
        .join('; ') || '-',
    ];
  });
  const quiet = evaluated.filter((r) => !fired.includes(r)).map((r) => r.alarm);
  const skipped = chaos.filter((r) => r.states === null).map((r) => r.alarm);
  return [
    table(['alarm', 'fault-free', 'chaos', 'during'], rows.length > 0 ? rows : [['(none fired)', '-', '-', '-']]),
    `evaluated and OK all day in both runs (${quiet.length}): ${quiet.join(', ')}`,
    `not evaluated, the local run emits none of their metric (${skipped.length}): ${skipped.join(', ')}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const args = parseChaosArgs(process.argv.slice(2));
  const s = CHAOS_SCHEDULE;
  const { alarms, queues } = stackAlarms();
  console.log(
    `chaos run: ${args.accounts} accounts (${INTERVAL_MIX.map((m) => `${m.share * 100}% ${m.interval} watched ${m.delegateWatch}`).join(', ')}; reports 07:45-08:15 UTC), seed ${args.seed}, one simulated day; load ${loadavg()[0]!.toFixed(1)}\n` +
      `faults: chain down ${hhmm(s.chainDown.fromMs)}-${hhmm(s.chainDown.toMs)}, SES 50% throttled ${hhmm(s.sesThrottle.fromMs)}-${hhmm(s.sesThrottle.toMs)}, ` +
      `one report worker hung ${(VISIBILITY_MS + MINUTE) / MINUTE} min from ${hhmm(s.hangAt)}, chain slow (p50 2 s) ${hhmm(s.chainSlow.fromMs)}-${hhmm(s.chainSlow.toMs)}, ` +
      `DynamoDB 20% of writes throttled ${hhmm(s.dynamoThrottle.fromMs)}-${hhmm(s.dynamoThrottle.toMs)}, ` +
      `owner keys' key service down ${s.keyServiceDown.forMs / MINUTE} min from the first signing after ${hhmm(s.keyServiceDown.fromMs)}, as ${PROTECTION_SCENARIO.accounts} armed accounts (both days) lose ${PROTECTION_SCENARIO.dropPct}% at ${hhmm(PROTECTION_SCENARIO.dropAtMs)} past a ${PROTECTION_SCENARIO.levelPct}% kill switch`,
  );
  // A loaded machine can take minutes to start the JVM.
  const dynamo = await startDynamoDbLocal({ inMemory: true, startTimeoutMs: 300_000 });
  const ses = await startSesLocal();
  try {
    const services = { dynamo: dynamo.endpoint, ses: ses.endpoint };
    const [base, chaos] = await Promise.all([runInChild(args, false, services, queues), runInChild(args, true, services, queues)]);
    console.log(report(base, chaos));
    console.log(protectionTable(base, chaos));
    console.log(alarmTable(evaluateAlarms(alarms, base.metrics, START, DAY), evaluateAlarms(alarms, chaos.metrics, START, DAY), chaos.keyServiceDown));
    const prefixes = new Map<string, number>();
    for (const a of chaos.accepted) prefixes.set(a.eventId.split(/[:#]/)[0] ?? '', (prefixes.get(a.eventId.split(/[:#]/)[0] ?? '') ?? 0) + 1);
    const lost = [...base.points].flatMap(([address, stamps]) => stamps.filter((ts) => !(chaos.points.get(address) ?? []).includes(ts)));
    if (lost.length > 0)
      console.log(`curve points lost: ${lost.length}, stamped ${new Date(Math.min(...lost)).toISOString()} to ${new Date(Math.max(...lost)).toISOString()}`);
    for (const [address, stamps] of base.points) {
      const got = chaos.points.get(address) ?? [];
      if (got.length < stamps.length)
        console.log(
          `  ${address}: ${stamps.length} points fault-free, ${got.length} in the chaos run (fault-free ${iso(stamps[0])} to ${iso(stamps.at(-1))}, chaos ${iso(got[0])} to ${iso(got.at(-1))})`,
        );
    }
    const alerts = tallySends(sendsOf(base.accepted, 'alert'), sendsOf(chaos.accepted, 'alert'), ALERT_TOLERANCE_MS);
    for (const [side, list] of [
      ['fault-free only', alerts.unpaired.missing],
      ['chaos only', alerts.unpaired.extra],
    ] as const)
      for (const u of list.slice(0, 20)) console.log(`  alert ${side}: ${u.occasion} at ${iso(u.at)}`);
    console.log(`emails of the chaos run by kind: ${[...prefixes].map(([k, n]) => `${k} ${n}`).join(', ')}; load ${loadavg()[0]!.toFixed(1)} at the end`);
  } finally {
    await ses.stop();
    await dynamo.stop();
  }
}

await main();
