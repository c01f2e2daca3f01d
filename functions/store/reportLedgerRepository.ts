import * as z from 'zod';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { reportJobKey, reportJobSchema, type ReportJob } from '../messages/reportJob';
import { batchGetAll } from './batchGet';
import { chunk, mapConcurrent } from '../shared/concurrency';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { SHARDS, shardOf } from './shard';
import { toTtlSeconds } from './ttl';

const MINUTE = 60_000;
/** Ledger entries are kept a week by default: long enough for any reconciliation to have passed them. */
const RETENTION_MS = 7 * 86_400_000;
/** Entries written per `UpdateItem` (an update expression is at most 4 KB). */
const ENTRIES_PER_WRITE = 50;
const ENTRY_PREFIX = 'job:';
const CURSOR_ID = 'report-ledger:cursor';

/** Where a claimed report job stands. */
export type LedgerStatus = 'queued' | 'done' | 'missed';

const entrySchema = z.object({
  job: reportJobSchema,
  status: z.enum(['queued', 'done', 'missed']),
  /** The last reason the worker gave for a retry. */
  reason: z.string().optional(),
});

/** One claimed job as the ledger holds it. */
export interface LedgerEntry {
  readonly job: ReportJob;
  readonly status: LedgerStatus;
  readonly reason: string | null;
}

const cursorSchema = z.object({ eventId: z.literal(CURSOR_ID), minute: z.number().int() });

const bucketId = (minute: number, shard: string) => `report-ledger:${minute}:${shard}`;
const minuteOf = (ms: number) => Math.floor(ms / MINUTE);
const entryName = (job: ReportJob) => `${ENTRY_PREFIX}${reportJobKey(job)}`;
const bucketOf = (job: ReportJob) => bucketId(minuteOf(job.dueAt), shardOf(reportJobKey(job)));

/**
 * The report jobs `report-dispatch` claimed, and whether each was finished: what reconciliation
 * reads to find a report that was claimed and never delivered. Items live in the `deliveries`
 * table, one per due minute and shard (`report-ledger:<epoch minute>:<shard>`), each job an
 * attribute of its own (`job:<job key>`), so a minute's jobs are a handful of `GetItem`s and a
 * job's status is one `UpdateItem`; kept a week.
 */
export class ReportLedgerRepository extends DynamoRepository<RepositoryOptions & { readonly retentionMs?: number }> {
  private readonly retentionMs: number;

  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions & { readonly retentionMs?: number } = {}) {
    super(client, prefix, 'deliveries', options);
    this.retentionMs = options.retentionMs ?? RETENTION_MS;
  }

  /** Records jobs as queued; a job already in the ledger (queued again) keeps its status. */
  async queued(jobs: readonly ReportJob[]): Promise<void> {
    const byBucket = new Map<string, ReportJob[]>();
    for (const job of jobs) byBucket.set(bucketOf(job), [...(byBucket.get(bucketOf(job)) ?? []), job]);
    const writes = [...byBucket].flatMap(([id, list]) => chunk(list, ENTRIES_PER_WRITE).map((part) => ({ id, part })));
    const expiresAt = toTtlSeconds(this.now() + this.retentionMs);
    await mapConcurrent(writes, 8, async ({ id, part }) => {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':expiresAt': expiresAt };
      const sets = part.map((job, i) => {
        names[`#j${i}`] = entryName(job);
        values[`:j${i}`] = parseItem(entrySchema, { job, status: 'queued' }, 'reportLedger.queued');
        return `#j${i} = if_not_exists(#j${i}, :j${i})`;
      });
      await this.call('reportLedger.queued', () =>
        this.client.send(
          new UpdateCommand({
            TableName: this.table,
            Key: { eventId: id },
            UpdateExpression: `SET expiresAt = :expiresAt, ${sets.join(', ')}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        ),
      );
    });
  }

  /** Marks a queued job finished (sent, or settled for good); `absent` when the ledger never had it. */
  finish(job: ReportJob): Promise<{ kind: 'finished' } | { kind: 'absent' }> {
    return this.setStatus('reportLedger.finish', job, 'done', 'attribute_exists(#j)');
  }

  /** Marks a queued job missed (reconciliation); `absent` when it is no longer queued. */
  markMissed(job: ReportJob): Promise<{ kind: 'finished' } | { kind: 'absent' }> {
    return this.setStatus('reportLedger.markMissed', job, 'missed', '#j.#status = :queued');
  }

  /** Notes why a queued job is to be retried (shown when it is found missed). */
  async noteFailure(job: ReportJob, reason: string): Promise<void> {
    await this.updateIfStill('reportLedger.noteFailure', {
      Key: { eventId: bucketOf(job) },
      UpdateExpression: 'SET #j.reason = :reason',
      ConditionExpression: '#j.#status = :queued',
      ExpressionAttributeNames: { '#j': entryName(job), '#status': 'status' },
      ExpressionAttributeValues: { ':reason': reason.slice(0, 500), ':queued': 'queued' },
    });
  }

  /** The jobs due after `fromMs` up to `toMs` (whole minutes) that are still queued. */
  async queuedDue(fromMs: number, toMs: number): Promise<LedgerEntry[]> {
    const keys: { eventId: string }[] = [];
    for (let minute = minuteOf(fromMs) + 1; minute <= minuteOf(toMs); minute++) for (const shard of SHARDS) keys.push({ eventId: bucketId(minute, shard) });
    if (keys.length === 0) return [];
    const items = await batchGetAll(this.client, this.table, keys, 'reportLedger.queuedDue');
    return items
      .flatMap((item) => Object.entries(item).filter(([name]) => name.startsWith(ENTRY_PREFIX)))
      .map(([, value]) => parseItem(entrySchema, value, 'reportLedger.queuedDue'))
      .filter((entry) => entry.status === 'queued')
      .map((entry) => ({ job: entry.job, status: entry.status, reason: entry.reason ?? null }))
      .sort((a, b) => a.job.dueAt - b.job.dueAt);
  }

  /** The entry of one job, or null. */
  async get(job: ReportJob): Promise<LedgerEntry | null> {
    const out = await this.call('reportLedger.get', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { eventId: bucketOf(job) }, ConsistentRead: true })),
    );
    const value = out.Item?.[entryName(job)];
    if (value === undefined) return null;
    const entry = parseItem(entrySchema, value, 'reportLedger.get');
    return { job: entry.job, status: entry.status, reason: entry.reason ?? null };
  }

  /** The instant reconciliation has looked up to (epoch ms of a whole minute), or null before its first run. */
  async cursor(): Promise<number | null> {
    const out = await this.call('reportLedger.cursor', () =>
      this.client.send(new GetCommand({ TableName: this.table, Key: { eventId: CURSOR_ID }, ConsistentRead: true })),
    );
    return out.Item ? parseItem(cursorSchema, out.Item, 'reportLedger.cursor').minute * MINUTE : null;
  }

  /** Moves the cursor from `expected` to `toMs` (its whole minute); `lost` when another run moved it first. */
  advanceCursor(expected: number | null, toMs: number): Promise<{ kind: 'advanced' } | { kind: 'lost' }> {
    return this.advanceCursorAt('reportLedger.advanceCursor', { eventId: CURSOR_ID }, 'minute', expected === null ? null : minuteOf(expected), minuteOf(toMs));
  }

  private setStatus(operation: string, job: ReportJob, status: LedgerStatus, condition: string) {
    return this.conditionalUpdate(
      operation,
      {
        Key: { eventId: bucketOf(job) },
        UpdateExpression: 'SET #j.#status = :status',
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#j': entryName(job), '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ...(condition.includes(':queued') ? { ':queued': 'queued' } : {}) },
      },
      { kind: 'finished' } as const,
      () => ({ kind: 'absent' }) as const,
    );
  }
}
