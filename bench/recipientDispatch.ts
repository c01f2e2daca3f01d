/**
 * The recipients' half of the per-minute report dispatch, against DynamoDB Local: N recipients
 * with a schedule of their own (digest, 5 accounts each) all due in the same minute. Prints, per
 * N, how long the run took (8 index queries, queueing, one conditional claim each), the jobs
 * queued, and what a second run in the same minute finds (nothing: every recipient was claimed).
 *
 *   npx tsx bench/recipientDispatch.ts [N ...]      (default 1000 5000)
 */
import { performance } from 'node:perf_hooks';
import { defaultRecipientSettings } from '../functions/domain/recipientSchedule';
import type { RecipientReportJob } from '../functions/messages/reportJob';
import type { MessageQueue } from '../functions/queue/messageQueue';
import { dispatchRecipientReports } from '../functions/services/report/schedule/dispatchRecipientReports';
import { mapConcurrent } from '../functions/shared/concurrency';
import { createTables, deleteTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories } from '../functions/store/repositories';
import { startDynamoDbLocal } from '../local/dynamodb';

const DUE = Date.parse('2026-11-23T07:00:00Z');

/** A queue that only counts what it is given. */
function countingQueue(): MessageQueue<RecipientReportJob> & { sent: number } {
  const queue = {
    sent: 0,
    send: async (entries: readonly { id: string; body: RecipientReportJob }[]) => {
      queue.sent += entries.length;
      return { failed: [] };
    },
  };
  return queue as unknown as MessageQueue<RecipientReportJob> & { sent: number };
}

async function run(endpoint: string, n: number): Promise<string[]> {
  const prefix = `benchrcp${n}-`;
  const dynamo = createDynamoDbClient({ endpoint });
  await createTables(dynamo, prefix);
  const repos = createRepositories(createDocumentClient(dynamo), prefix);
  const accounts = Array.from({ length: 5 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  await mapConcurrent(
    Array.from({ length: n }, (_, i) => i),
    32,
    (i) =>
      repos.recipients.save({
        settings: { ...defaultRecipientSettings(`desk${i}@example.com`), mode: 'digest', reportAt: '07:00', timezone: 'UTC' },
        accounts,
        schedule: { nextReportAt: DUE, clock: { timezone: 'UTC', reportAt: '07:00' } },
      }),
  );
  const queue = countingQueue();
  const started = performance.now();
  const first = await dispatchRecipientReports({ recipients: repos.recipients, reportQueue: queue, ledger: repos.reportLedger }, DUE + 5_000);
  const seconds = (performance.now() - started) / 1000;
  const second = await dispatchRecipientReports({ recipients: repos.recipients, reportQueue: queue, ledger: repos.reportLedger }, DUE + 20_000);
  await deleteTables(dynamo, prefix);
  dynamo.destroy();
  return [String(n), seconds.toFixed(2), (n / seconds).toFixed(0), String(first.queued.length), String(first.lost.length), String(second.queued.length)];
}

async function main(): Promise<void> {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const dynamo = await startDynamoDbLocal({ inMemory: true });
  try {
    const rows = [['recipients due', 'dispatch s', 'recipients/s', 'jobs queued', 'lost claims', 'queued by a 2nd run']];
    for (const n of sizes.length > 0 ? sizes : [1_000, 5_000]) rows.push(await run(dynamo.endpoint, n));
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const r of rows) console.log(r.map((cell, c) => cell.padStart(widths[c]!)).join('  '));
  } finally {
    await dynamo.stop();
  }
}

void main();
