/**
 * Kill switch latency (`npm run bench:protection [-- --seed 1 --chain-ms 200 --dynamo-ms 6]`).
 *
 * 100 armed `1m` accounts (`--kill-switch 20 --kill-switch-confirm now`, protection on, two API
 * keys and a web session each) on the local pipeline `npm start` runs (`createLocalSystem`):
 * DynamoDB Local, the chain simulator over HTTP, dispatch and the deployed collect handler once a
 * simulated minute (30 s into it, as deployed), the protection service, the decision queue and the
 * signing handler, which removes each key on the simulator with the owner's signature.
 *
 * - 50 lose 30% at five speeds (the level, 20%, reached after 1, 2, 5, 10 and 30 minutes; 10 each);
 * - 50 show a one-sample spike: 25 a print up at their peak (30 to 200%) before a real 8% loss, 25 a
 *   print down (15 to 80%) at the trough of a real 10% loss. The 1m curve shows each past the level.
 *
 * The clock is simulated (`local/virtualClock.ts`): each DynamoDB and chain request holds it while it
 * runs on this machine, then lets `--dynamo-ms` / `--chain-ms` of simulated time pass (the time the
 * call takes in AWS). Latency runs from the minute the chain's `1m` curve first shows the loss past
 * the level (its point is served from the start of that minute) to the signer's removal of the
 * account's last API key.
 */

import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import type { ChainClient } from '../functions/chain/ports';
import { loadSettings } from '../functions/config/settings';
import { accountSettingsSchema } from '../functions/domain/account';
import { drawdownCurve } from '../functions/domain/drawdown';
import { alignCurves } from '../functions/domain/series';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { memoryCounters, silentLog } from '../functions/shared/observability';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { FileProtectionSwitch } from '../functions/store/fileProtectionSwitch';
import { createRepositories } from '../functions/store/repositories';
import { DEFAULT_COLLECT_CONCURRENCY } from '../infra/config/chainRateBudget';
import { startDynamoDbLocal } from '../local/dynamodb';
import { createLocalSystem } from '../local/localSystem';
import { SimControlClient, startSimulator } from '../local/sim';
import { VirtualClock } from '../local/virtualClock';
import { disableTtl } from './chaosTables';
import { prng } from './prng';
import { holdDuring, timedFetch } from './simulatedRequests';
import { simulatorChain } from './simulatorChain';
import { percentile } from './stats';

const MINUTE = 60_000;
/** A Monday after the machine's date: DynamoDB Local's TTL sweeper never sees an item as expired. */
const START = Date.UTC(2030, 0, 7);
/** Dispatch runs this far into each minute, as deployed (`DEFAULT_POLL_DELAY_MS`). */
const POLL_DELAY_MS = 30_000;
const LEVEL_PCT = 20;
const LOSS_PCT = 30;
/** The losses start over these minutes after the first polls, one account after another. */
const FIRST_EVENT_MINUTE = 5;
const STAGGER_MINUTES = 10;
const RUN_MINUTES = FIRST_EVENT_MINUTE + STAGGER_MINUTES + 40;
/** Minutes to the level by group; a loss of 30% spread over `n` minutes reaches 20% after `n * ln 0.8 / ln 0.7`. */
const SPEEDS = [1, 2, 5, 10, 30] as const;
const PER_SPEED = 10;
const SPIKES_PER_KIND = 25;
const CALM = { annualDrift: 0.05, annualVolatility: 0.02 };

type Role = { kind: 'loss'; toLevel: number; overMinutes: number } | { kind: 'spike-up'; pct: number } | { kind: 'spike-down'; pct: number };

interface BenchAccount {
  readonly address: string;
  readonly role: Role;
  /** When its scripted events start (a whole minute). */
  readonly eventsAt: number;
}

function parse(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    options: { seed: { type: 'string', default: '1' }, 'chain-ms': { type: 'string', default: '200' }, 'dynamo-ms': { type: 'string', default: '6' } },
  });
  const number = (option: 'seed' | 'chain-ms' | 'dynamo-ms') => {
    const n = Number(values[option]);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${option} must be a whole number, 0 or more`);
    return n;
  };
  return { seed: number('seed'), chainMs: number('chain-ms'), dynamoMs: number('dynamo-ms') };
}

function roles(random: () => number): Role[] {
  const out: Role[] = [];
  for (const toLevel of SPEEDS)
    for (let i = 0; i < PER_SPEED; i++)
      out.push({ kind: 'loss', toLevel, overMinutes: Math.max(1, Math.floor((toLevel * Math.log(0.7)) / Math.log(1 - LEVEL_PCT / 100))) });
  for (let i = 0; i < SPIKES_PER_KIND; i++) out.push({ kind: 'spike-up', pct: Math.round(30 + random() * 170) });
  for (let i = 0; i < SPIKES_PER_KIND; i++) out.push({ kind: 'spike-down', pct: Math.round(15 + random() * 65) });
  return out;
}

/** Schedules an account's path on the simulator at `at`, in the minute before `eventsAt` (an event shows from the next whole minute). */
async function script(control: SimControlClient, a: BenchAccount, at: number): Promise<void> {
  switch (a.role.kind) {
    case 'loss':
      await control.drawdown(a.address, { pct: LOSS_PCT, overMs: a.role.overMinutes * MINUTE, atMs: at });
      return;
    case 'spike-up':
      // The print is the peak; a real loss of 8% follows two minutes later.
      await control.print(a.address, { pct: a.role.pct, atMs: at });
      await control.drawdown(a.address, { pct: 8, overMs: 3 * MINUTE, atMs: at + 2 * MINUTE });
      return;
    case 'spike-down':
      // A real loss of 10% over three minutes, then the print at its trough.
      await control.drawdown(a.address, { pct: 10, overMs: 3 * MINUTE, atMs: at });
      await control.print(a.address, { pct: -a.role.pct, atMs: at + 4 * MINUTE });
  }
}

/**
 * Wraps the chain client: records when each `RemoveDelegateManager` the chain accepted was sent, by
 * owner, and counts the kill switch's `1m` re-reads (they end on a whole minute, the crossing's;
 * collect's own reads end at its clock's now).
 */
function recordingChain(chain: ChainClient, now: () => number): { chain: ChainClient; removals: Map<string, number[]>; rereads: () => number } {
  const removals = new Map<string, number[]>();
  let rereads = 0;
  return {
    removals,
    rereads: () => rereads,
    chain: {
      ...chain,
      getPortfolio: (query, options) => {
        if (query.interval === '1m' && query.to % MINUTE === 0) rereads++;
        return chain.getPortfolio(query, options);
      },
      submitTransaction: async (tx) => {
        const result = await chain.submitTransaction(tx);
        if ('RemoveDelegateManager' in tx.data.instruction) {
          const owner = tx.data.sender.toLowerCase();
          removals.set(owner, [...(removals.get(owner) ?? []), now()]);
        }
        return result;
      },
    },
  };
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const seconds = (ms: number): string => (Number.isFinite(ms) ? (ms / 1000).toFixed(1) : '-');

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const began = performance.now();
  const random = prng(args.seed);
  console.log(
    `kill switch latency: ${SPEEDS.length * PER_SPEED} 1m accounts losing ${LOSS_PCT}% (level ${LEVEL_PCT}%, confirm now), ${2 * SPIKES_PER_KIND} with one-sample spikes; ` +
      `chain ${args.chainMs} ms, DynamoDB ${args.dynamoMs} ms a request; seed ${args.seed}; load ${loadavg()[0]!.toFixed(1)}`,
  );
  const dynamoLocal = await startDynamoDbLocal({ inMemory: true, startTimeoutMs: 300_000 });
  const sim = await startSimulator({ port: 0, seed: args.seed, clock: { startMs: START, speed: 0 }, historyDays: 2 });
  const prefix = `prot-${Date.now() % 100_000}-`;
  const dynamo = createDynamoDbClient({ endpoint: dynamoLocal.endpoint });
  try {
    await createTables(dynamo, prefix);
    await disableTtl(dynamo, prefix);
    const clock = new VirtualClock(START);
    holdDuring(dynamo, clock, args.dynamoMs);
    const repos = createRepositories(createDocumentClient(dynamo), prefix, { now: clock.now });
    const control = new SimControlClient(sim.controlUrl);

    const signerEnv: Record<string, string> = {};
    const accounts: BenchAccount[] = [];
    for (const [i, role] of roles(random).entries()) {
      const created = await control.createAccount({ label: `${role.kind}-${i}`, profile: CALM, historyDays: 2 });
      for (const name of ['bot', 'hedger']) await control.addDelegate(created.address, { name, expiresInMs: 30 * 24 * 60 * MINUTE });
      await control.addDelegate(created.address, { name: 'browser', isWebClient: true, expiresInMs: 30 * 24 * 60 * MINUTE });
      signerEnv[`BENCH_OWNER_${i}`] = created.privateKey;
      const settings = accountSettingsSchema.parse({
        address: created.address,
        email: `desk${i}@example.com`,
        interval: '1m',
        killSwitch: LEVEL_PCT,
        killSwitchConfirm: 'now',
        signer: `env:BENCH_OWNER_${i}`,
      });
      await repos.accounts.create(newTrackedAccount(settings, START));
      accounts.push({ address: created.address, role, eventsAt: START + (FIRST_EVENT_MINUTE + (i % STAGGER_MINUTES)) * MINUTE });
    }

    const protectionFile = join(await mkdtemp(join(tmpdir(), 'bench-protection-')), 'protection');
    await new FileProtectionSwitch(protectionFile).write('on');
    const settings = loadSettings({
      DYNAMODB_ENDPOINT: dynamoLocal.endpoint,
      PUBLIC_BASE_URL: 'https://links.example.com',
      SENTINEL_LINK_SECRET: 'protection-bench-link-secret-0123456789abcdef',
      SENTINEL_TABLE_PREFIX: prefix,
      // Two hours of history for each account's first poll; the breaker out of the way (50 firings within the hour are the point here).
      BACKFILL_DAYS: String(2 / 24),
      PROTECTION_BREAKER_ACCOUNTS: '1000',
    });
    const simChain = simulatorChain(sim, timedFetch(clock, args.chainMs));
    const { chain, removals, rereads } = recordingChain(simChain, clock.now);
    const counters = memoryCounters();
    const system = await createLocalSystem({
      settings,
      repos,
      log: silentLog,
      counters,
      now: clock.now,
      chain,
      // The notices are queued, not sent: the latency measured ends at the chain.
      sender: { send: async () => ({ messageId: 'not-sent' }) },
      clock: args.chainMs + args.dynamoMs > 0 ? { now: clock.now, sleep: clock.sleep, sleepUnless: clock.sleepUnless } : clock,
      signerEnv,
      protectionFile,
      dispatchEveryMs: MINUTE,
      collectConcurrency: DEFAULT_COLLECT_CONCURRENCY,
    });

    // The decision worker signs as units are queued, while collect goes on (the FIFO queue's event
    // source, reserved concurrency 1), not only once the cycle's polls are done: one drain at a time,
    // started by each unit queued and shared with the one `runCycle` asks for.
    const { decisions } = system;
    const queueDecision = decisions.send.bind(decisions);
    const drainDecisions = decisions.drain.bind(decisions);
    let signing: ReturnType<typeof drainDecisions> | undefined;
    decisions.drain = () => (signing ??= drainDecisions().finally(() => (signing = undefined)));
    decisions.send = async (entries) => {
      const sent = await queueDecision(entries);
      void decisions.drain();
      return sent;
    };
    let scripted = 0;
    try {
      for (let minute = 0; minute < RUN_MINUTES; minute++) {
        const tick = START + minute * MINUTE + POLL_DELAY_MS;
        if (clock.now() < tick) clock.set(tick);
        await control.setClock({ nowMs: tick });
        for (const a of accounts.filter((x) => x.eventsAt === tick - POLL_DELAY_MS + MINUTE)) {
          await script(control, a, tick);
          scripted++;
        }
        await system.pipeline.runCycle({ kind: 'due' }, undefined, 'collect-only');
        await signing;
        if (minute % 10 === 9) process.stderr.write(`  minute ${minute + 1} of ${RUN_MINUTES}, ${((performance.now() - began) / 1000).toFixed(0)} s\n`);
      }
    } finally {
      await system.pipeline.stop();
    }
    if (scripted !== accounts.length) throw new Error(`scripted ${scripted} of ${accounts.length} accounts`);

    /** The first minute the chain's 1m curve shows the account's drawdown past the level (since its first poll's window), and its deepest. */
    const shown = async (a: BenchAccount) => {
      const page = await simChain.getPortfolio({ account: a.address, from: START - 2 * 60 * MINUTE, to: START + RUN_MINUTES * MINUTE, interval: '1m' });
      const curve = drawdownCurve(alignCurves(page.equity, page.pnl));
      return {
        at: curve.find((p) => p.timestamp >= a.eventsAt && p.drawdownPct >= LEVEL_PCT)?.timestamp,
        deepest: Math.max(...curve.map((p) => p.drawdownPct)),
      };
    };
    const revokedAt = (a: BenchAccount): number | undefined => {
      const times = removals.get(a.address.toLowerCase()) ?? [];
      return times.length >= 2 ? Math.max(...times) : undefined;
    };

    const rows: string[][] = [];
    for (const toLevel of SPEEDS) {
      const group = accounts.filter((a) => a.role.kind === 'loss' && a.role.toLevel === toLevel);
      const latencies: number[] = [];
      const polls = new Set<number>();
      const reached: number[] = [];
      for (const a of group) {
        const at = (await shown(a)).at;
        const revoked = revokedAt(a);
        if (at === undefined || revoked === undefined) continue;
        reached.push((at - a.eventsAt) / MINUTE + 1);
        latencies.push(revoked - at);
        polls.add(Math.floor((revoked - at - POLL_DELAY_MS) / MINUTE) + 1);
      }
      latencies.sort((x, y) => x - y);
      const over = group[0]!.role.kind === 'loss' ? group[0]!.role.overMinutes : 0;
      rows.push([
        `${toLevel} min`,
        `${LOSS_PCT}% over ${over} min`,
        `${Math.min(...reached)}-${Math.max(...reached)}`,
        `${latencies.length} of ${group.length}`,
        `${seconds(percentile(latencies, 50))} / ${seconds(percentile(latencies, 99))} / ${seconds(latencies.at(-1) ?? Number.NaN)}`,
        [...polls].sort().join(', '),
      ]);
    }
    console.log(
      table(
        [
          'to the level',
          'loss',
          'chain showed it after (min)',
          'every key revoked',
          'chain shows it → every key revoked p50 / p99 / max (s)',
          'revoked at poll # after it showed',
        ],
        rows,
      ),
    );

    const spikeRows: string[][] = [];
    for (const [kind, label] of [
      ['spike-up', 'print up at the peak (+30 to +200%), then a real 8% loss'],
      ['spike-down', 'print down at the trough (-15 to -80%) of a real 10% loss'],
    ] as const) {
      const group = accounts.filter((a) => a.role.kind === kind);
      let past = 0;
      for (const a of group) if ((await shown(a)).deepest >= LEVEL_PCT) past++;
      const fired = group.filter((a) => (removals.get(a.address.toLowerCase()) ?? []).length > 0).length;
      spikeRows.push([label, String(group.length), String(past), String(fired)]);
    }
    console.log(table(['one-sample spike', 'accounts', 'its 1m curve past the level', 'fired (must be 0)'], spikeRows));
    const total = (name: string) => counters.totals.get(name) ?? 0;
    console.log(
      `re-reads: ${total('KillSwitchFired')} confirmed (fired), ${total('KillSwitchRefuted')} refuted, ${total('KillSwitchRereadUnavailable')} unavailable, ${rereads()} chain requests; ` +
        `${((performance.now() - began) / 1000).toFixed(0)} s of real time; load ${loadavg()[0]!.toFixed(1)} at the end`,
    );
  } finally {
    await sim.close();
    await deleteTables(dynamo, prefix).catch(() => undefined);
    dynamo.destroy();
    await dynamoLocal.stop();
  }
}

await main();
