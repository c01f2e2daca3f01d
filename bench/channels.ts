/**
 * Channel delivery benchmark (`npm run bench:channels [-- --accounts 1000]`).
 *
 * N accounts each raise an alert in the same poll; each account routes to three channels: one
 * Slack webhook, one Telegram group and a signed webhook (the scenario), plus a PagerDuty
 * routing key for comparison. A discrete-event simulation on a simulated clock runs the channel
 * worker's own pacing and backlog rules (`DestinationPacer`, `COMBINE_AFTER_MS`, queue delays in
 * whole seconds as SQS `DelaySeconds`) against each API's rate as the local receivers enforce it
 * (`RECEIVER_RATES`: a send past the rate is a 429 with the announced wait). Sending and storing
 * take no simulated time: the figures are what the design does, not how fast this machine is.
 *
 * Prints per destination: deliveries (messages sent) and notices carried, messages per second
 * against the API's limit, 429s, notices combined, lost and duplicated notices, latency from the
 * poll to delivery p50/p99, and when the last notice arrived; once with combining, once without.
 */
import { parseArgs } from 'node:util';
import { COMBINE_AFTER_MS, COMBINED_TYPES, DestinationPacer } from '../functions/domain/destinationPacer';
import type { ChannelType } from '../functions/domain/channel';
import { RECEIVER_RATES } from '../local/receivers/chatReceivers';

type Job = { kind: 'notice'; id: number; dest: Dest; slotAt?: number } | { kind: 'backlog'; dest: Dest; slotAt: number };
interface Dest {
  readonly name: string;
  readonly type: ChannelType;
  readonly parked: number[];
  flushPending: boolean;
  readonly window: number[];
  messages: number;
  throttled: number;
  combined: number;
  readonly deliveredAt: Map<number, number>;
  duplicates: number;
}

const { values } = parseArgs({ options: { accounts: { type: 'string', default: '1000' } } });
const accounts = Number(values.accounts);
if (!Number.isInteger(accounts) || accounts < 1) throw new Error('--accounts must be a positive integer');

function run(combine: boolean): Dest[] {
  const pacer = new DestinationPacer();
  const dests: Dest[] = (['slack', 'telegram', 'webhook', 'pagerduty'] as const).map((type) => ({
    name: type,
    type,
    parked: [],
    flushPending: false,
    window: [],
    messages: 0,
    throttled: 0,
    combined: 0,
    deliveredAt: new Map(),
    duplicates: 0,
  }));
  // A min-ordered agenda of (time, job); equal times keep insertion order.
  const agenda: { at: number; seq: number; job: Job }[] = [];
  let seq = 0;
  const schedule = (at: number, job: Job) => agenda.push({ at, seq: seq++, job });
  for (const dest of dests) for (let id = 0; id < accounts; id++) schedule(0, { kind: 'notice', id, dest });
  const delay = (ms: number) => Math.ceil(ms / 1_000) * 1_000;

  /** The receiver's rate: ok, or the wait a 429 announces. */
  const admit = (dest: Dest, now: number): number => {
    if (dest.type === 'webhook') return 0;
    const rate = RECEIVER_RATES[dest.type];
    while (dest.window.length > 0 && (dest.window[0] ?? 0) <= now - rate.windowMs) dest.window.shift();
    if (dest.window.length >= rate.count) return (dest.window[0] ?? now) + rate.windowMs - now;
    dest.window.push(now);
    return 0;
  };
  const deliver = (dest: Dest, ids: readonly number[], now: number) => {
    dest.messages++;
    for (const id of ids) {
      if (dest.deliveredAt.has(id)) dest.duplicates++;
      else dest.deliveredAt.set(id, now);
    }
  };

  while (agenda.length > 0) {
    agenda.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const { at: now, job } = agenda.shift()!;
    const dest = job.dest;
    if (job.kind === 'backlog') {
      const paced = pacer.takeReserved(dest.name, now);
      if (paced.kind === 'wait') {
        schedule(now + delay(paced.ms), job);
        continue;
      }
      const wait = admit(dest, now);
      if (wait > 0) {
        dest.throttled++;
        pacer.block(dest.name, wait, now);
        schedule(now + delay(wait), { ...job, slotAt: now + wait });
        continue;
      }
      const ids = dest.parked.splice(0);
      dest.flushPending = false;
      dest.combined += ids.length;
      deliver(dest, ids, now);
      continue;
    }
    const paced = job.slotAt !== undefined && now >= job.slotAt ? pacer.takeReserved(dest.name, now) : pacer.take(dest.name, dest.type, now);
    let waitMs = paced.kind === 'wait' ? paced.ms : admit(dest, now);
    if (paced.kind === 'go' && waitMs > 0) {
      dest.throttled++;
      pacer.block(dest.name, waitMs, now);
    }
    if (waitMs === 0) {
      deliver(dest, [job.id], now);
      continue;
    }
    waitMs = pacer.reserve(dest.name, dest.type, now);
    if (combine && waitMs > COMBINE_AFTER_MS && COMBINED_TYPES.includes(dest.type)) {
      dest.parked.push(job.id);
      if (!dest.flushPending) {
        dest.flushPending = true;
        schedule(now + delay(waitMs), { kind: 'backlog', dest, slotAt: now + waitMs });
      }
      continue;
    }
    schedule(now + delay(waitMs), { ...job, slotAt: now + waitMs });
  }
  return dests;
}

const pct = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const seconds = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;
const LIMIT: Readonly<Record<ChannelType, string>> = { slack: '1/s', telegram: '1/s', discord: '2.5/s', pagerduty: '2/s', webhook: 'none' };

const rows: string[][] = [['combining', 'destination', 'messages', 'notices', 'msg/s (limit)', '429s', 'combined', 'lost', 'dup', 'p50', 'p99', 'all arrived']];
for (const combine of [true, false]) {
  for (const dest of run(combine)) {
    const latencies = [...dest.deliveredAt.values()].sort((a, b) => a - b);
    const last = latencies[latencies.length - 1] ?? 0;
    rows.push([
      combine ? 'on' : 'off',
      dest.type,
      String(dest.messages),
      String(dest.deliveredAt.size),
      `${last > 0 ? (dest.messages / (last / 1_000)).toFixed(2) : 'all at t=0'} (${LIMIT[dest.type]})`,
      String(dest.throttled),
      String(dest.combined),
      String(accounts - dest.deliveredAt.size),
      String(dest.duplicates),
      seconds(pct(latencies, 50)),
      seconds(pct(latencies, 99)),
      seconds(last),
    ]);
  }
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
process.stdout.write(
  `channel delivery: ${accounts} accounts raise an alert in one poll; one Slack webhook, one Telegram group, one webhook, one PagerDuty key (simulated clock)\n\n`,
);
for (const row of rows) process.stdout.write(`${row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')}\n`);
process.stdout.write(
  `\ncombine threshold: a notice that would wait more than ${COMBINE_AFTER_MS / 1_000} s for its slot is parked and sent in the destination's next summary (chats only).\n`,
);
