import type { SizeMeasurement } from './collectScenario';

/** Share of the rate ceiling the measured cycle must reach. */
export const RATE_TARGET = 0.9;
/** How many times the naive baseline's accounts per second the pipeline must reach. */
export const NAIVE_RATIO_TARGET = 20;
/** Write budget per poll: `WRITES_PER_POINT` × new points + `WRITES_PER_POLL`. */
export const WRITES_PER_POINT = 1.1;
export const WRITES_PER_POLL = 2;

/** The figures of one size, derived from what was measured. */
export interface SizeRow {
  readonly m: SizeMeasurement;
  readonly accountsPerSecond: number;
  readonly requestsPerSecond: number;
  /** Requests per second over `CHAIN_RPS`. */
  readonly rateShare: number;
  /** Requests over the most the bucket could admit in the wall time (its burst plus `rps` × time). */
  readonly bucketShare: number;
  readonly writesPerPoint: number;
  readonly unitsPerPoint: number;
  readonly writesPerPoll: number;
  readonly unitsPerPoll: number;
  /** `1.1 × new points + 2` per poll, averaged over the polls. */
  readonly budgetPerPoll: number;
  readonly naiveAccountsPerSecond: number;
  readonly naiveRatio: number;
  readonly pass: { rate: boolean; naive: boolean; writes: boolean; units: boolean };
}

/** Derives the per-size figures and checks the targets. */
export function sizeRow(m: SizeMeasurement, rps: number, burst: number): SizeRow {
  const seconds = m.wallMs / 1000;
  const accountsPerSecond = m.polls / seconds;
  const requestsPerSecond = m.chainRequests / seconds;
  const rateShare = requestsPerSecond / rps;
  const writesPerPoll = m.writes.total.writes / m.polls;
  const unitsPerPoll = m.writes.total.units / m.polls;
  const budgetPerPoll = (WRITES_PER_POINT * m.newPoints) / m.polls + WRITES_PER_POLL;
  const naiveAccountsPerSecond = m.naive.accounts / (m.naive.wallMs / 1000);
  const naiveRatio = accountsPerSecond / naiveAccountsPerSecond;
  return {
    m,
    accountsPerSecond,
    requestsPerSecond,
    rateShare,
    bucketShare: m.chainRequests / (burst + rps * seconds),
    writesPerPoint: m.writes.total.writes / m.newPoints,
    unitsPerPoint: m.writes.total.units / m.newPoints,
    writesPerPoll,
    unitsPerPoll,
    budgetPerPoll,
    naiveAccountsPerSecond,
    naiveRatio,
    pass: {
      rate: rateShare >= RATE_TARGET,
      naive: naiveRatio >= NAIVE_RATIO_TARGET,
      writes: writesPerPoll <= budgetPerPoll,
      units: unitsPerPoll <= budgetPerPoll,
    },
  };
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const pct = (value: number) => `${fixed(value * 100, 1)} %`;
const int = (value: number) => Math.round(value).toLocaleString('en-US');

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The report as Markdown tables (printed, and pasted into docs/benchmarks.md). */
export function renderReport(rows: readonly SizeRow[], rps: number): string {
  const throughput = table(
    ['accounts', 'wall time', 'accounts/s', 'chain requests', 'requests/s', 'CHAIN_RPS', 'share of ceiling', 'share of bucket allowance', 'target ≥ 90 %'],
    rows.map((r) => [
      int(r.m.accounts),
      `${fixed(r.m.wallMs / 1000, 2)} s`,
      fixed(r.accountsPerSecond, 1),
      int(r.m.chainRequests),
      fixed(r.requestsPerSecond, 1),
      String(rps),
      pct(r.rateShare),
      pct(r.bucketShare),
      verdict(r.pass.rate),
    ]),
  );
  const writes = table(
    [
      'accounts',
      'new points',
      'write requests',
      'WCU',
      'writes/new point',
      'WCU/new point',
      'writes/poll',
      'WCU/poll',
      'budget/poll (1.1 × points + 2)',
      'writes ≤ budget',
      'WCU ≤ budget',
    ],
    rows.map((r) => [
      int(r.m.accounts),
      int(r.m.newPoints),
      int(r.m.writes.total.writes),
      fixed(r.m.writes.total.units, 1),
      fixed(r.writesPerPoint, 2),
      fixed(r.unitsPerPoint, 2),
      fixed(r.writesPerPoll, 2),
      fixed(r.unitsPerPoll, 2),
      fixed(r.budgetPerPoll, 2),
      verdict(r.pass.writes),
      verdict(r.pass.units),
    ]),
  );
  const naive = table(
    [
      'accounts',
      'naive sample',
      'naive wall time',
      'naive accounts/s',
      'naive points written',
      'naive requests',
      'naive write requests',
      'naive WCU',
      'pipeline accounts/s',
      'ratio',
      'target ≥ 20×',
    ],
    rows.map((r) => [
      int(r.m.accounts),
      int(r.m.naive.accounts),
      `${fixed(r.m.naive.wallMs / 1000, 2)} s`,
      fixed(r.naiveAccountsPerSecond, 2),
      int(r.m.naive.points),
      int(r.m.naive.chainRequests),
      int(r.m.naive.writes.total.writes),
      fixed(r.m.naive.writes.total.units, 1),
      fixed(r.accountsPerSecond, 1),
      `${fixed(r.naiveRatio, 1)}×`,
      verdict(r.pass.naive),
    ]),
  );
  const manual = table(
    ['accounts', 'polls', 'new points', 'write requests', 'WCU', 'WCU/poll', 'budget/poll', 'WCU ≤ budget'],
    rows.map((r) => {
      const polls = Math.max(1, r.m.manual.polls);
      const budget = WRITES_PER_POINT * (r.m.manual.newPoints / polls) + WRITES_PER_POLL;
      const perPoll = r.m.manual.writes.total.units / polls;
      return [
        int(r.m.accounts),
        int(r.m.manual.polls),
        int(r.m.manual.newPoints),
        int(r.m.manual.writes.total.writes),
        fixed(r.m.manual.writes.total.units, 1),
        fixed(perPoll, 2),
        fixed(budget, 2),
        verdict(perPoll <= budget),
      ];
    }),
  );
  return [
    `### Throughput\n\n${throughput}`,
    `### Writes (measured cycle)\n\n${writes}`,
    `### Writes of \`collect --all\` (an hour later)\n\n${manual}`,
    `### Naive baseline\n\n${naive}`,
  ].join('\n\n');
}

/** Where the requests and writes of each size went, and anything that was not a clean poll. */
export function renderBreakdown(rows: readonly SizeRow[]): string {
  const lines: string[] = [];
  for (const r of rows) {
    const routes = [...r.m.requestsByRoute].map(([route, count]) => `${route} ${int(count)}`).join(', ');
    const cpu = `CPU during the cycle: this process ${fixed((r.m.cpu.selfMs / r.m.wallMs) * 100, 0)} %, DynamoDB Local ${r.m.cpu.otherMs === null ? 'n/a' : `${fixed((r.m.cpu.otherMs / r.m.wallMs) * 100, 0)} %`} of one core`;
    lines.push(
      `${int(r.m.accounts)} accounts: first poll done after ${fixed(r.m.firstPollMs / 1000, 2)} s (due query + one poll); requests by route: ${routes}; notify events: ${r.m.notifyEvents}; ${cpu}`,
    );
    for (const [kind, tally] of [...r.m.writes.byKind].sort()) {
      lines.push(
        `  ${kind}: ${int(tally.writes)} writes in ${int(tally.calls)} calls, ${fixed(tally.units, 1)} WCU (${fixed(tally.units / Math.max(1, tally.writes), 2)} per write)${tally.refused ? `, ${tally.refused} refused` : ''}`,
      );
    }
    const others = Object.entries(r.m.otherOutcomes);
    if (others.length > 0) lines.push(`  WARNING: polls not collected: ${others.map(([kind, n]) => `${kind} ${n}`).join(', ')}`);
    if (r.m.pollsNotOnePoint > 0) lines.push(`  WARNING: ${r.m.pollsNotOnePoint} polls did not bring exactly one new point`);
  }
  return lines.join('\n');
}
