import * as z from 'zod';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { reportJobKey, reportJobSchema, type ReportJob } from '../messages/reportJob';
import { batchGetAll } from './batchGet';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { SHARDS, shardOf } from './shard';
import { toTtlSeconds } from './ttl';

const DAY = 86_400_000;
/** Kept like delivery records. */
const RETENTION_MS = 90 * DAY;
const ENTRY_PREFIX = 'missed:';

const entrySchema = z.object({
  job: reportJobSchema,
  /** Why the last attempt failed, as the worker noted it; absent when no attempt said. */
  reason: z.string().optional(),
  missedAt: z.number().int().min(0),
  /** When the operator was told. */
  notifiedAt: z.number().int().min(0).optional(),
  /** When `sentinel report --retry-missed` sent it (or found it already sent). */
  retriedAt: z.number().int().min(0).optional(),
});

/** A report that was claimed and not delivered by the end of its grace. */
export interface MissedReport {
  readonly job: ReportJob;
  readonly reason: string | null;
  readonly missedAt: number;
  readonly notifiedAt: number | null;
  readonly retriedAt: number | null;
}

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const itemId = (job: ReportJob) => `report-missed:${utcDate(job.dueAt)}:${shardOf(reportJobKey(job))}`;
const entryName = (job: ReportJob) => `${ENTRY_PREFIX}${reportJobKey(job)}`;

function toMissed(value: unknown, operation: string): MissedReport {
  const entry = parseItem(entrySchema, value, operation);
  return { job: entry.job, reason: entry.reason ?? null, missedAt: entry.missedAt, notifiedAt: entry.notifiedAt ?? null, retriedAt: entry.retriedAt ?? null };
}

/**
 * Reports recorded as missed: one entry per account (or recipient) and report day, in the
 * `deliveries` table, one item per UTC day of the due time and shard
 * (`report-missed:<YYYY-MM-DD>:<shard>`), each report an attribute (`missed:<job key>`); kept 90 days.
 */
export class MissedReportsRepository extends DynamoRepository<RepositoryOptions & { readonly retentionMs?: number }> {
  private readonly retentionMs: number;

  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions & { readonly retentionMs?: number } = {}) {
    super(client, prefix, 'deliveries', options);
    this.retentionMs = options.retentionMs ?? RETENTION_MS;
  }

  /** Records a missed report once (a second call keeps the first record); returns the record as stored. */
  async record(job: ReportJob, reason: string | null, missedAt: number): Promise<MissedReport> {
    const entry = parseItem(entrySchema, { job, missedAt, ...(reason === null ? {} : { reason: reason.slice(0, 500) }) }, 'missedReports.record');
    const out = await this.call('missedReports.record', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { eventId: itemId(job) },
          UpdateExpression: 'SET expiresAt = :expiresAt, #m = if_not_exists(#m, :entry)',
          ExpressionAttributeNames: { '#m': entryName(job) },
          ExpressionAttributeValues: { ':expiresAt': toTtlSeconds(missedAt + this.retentionMs), ':entry': entry },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return toMissed(out.Attributes?.[entryName(job)], 'missedReports.record');
  }

  /** Notes that the operator was told of this missed report. */
  async markNotified(job: ReportJob, at: number): Promise<void> {
    await this.stamp('missedReports.markNotified', job, 'notifiedAt', at);
  }

  /** Notes that `report --retry-missed` delivered it. */
  async markRetried(job: ReportJob, at: number): Promise<void> {
    await this.stamp('missedReports.markRetried', job, 'retriedAt', at);
  }

  /** The reports due from `fromMs` to `toMs` recorded as missed, earliest due first. */
  async dueBetween(fromMs: number, toMs: number): Promise<MissedReport[]> {
    const keys: { eventId: string }[] = [];
    for (let day = Math.floor(fromMs / DAY); day <= Math.floor(toMs / DAY); day++) {
      for (const shard of SHARDS) keys.push({ eventId: `report-missed:${utcDate(day * DAY)}:${shard}` });
    }
    const items = await batchGetAll(this.client, this.table, keys, 'missedReports.dueBetween');
    return items
      .flatMap((item) => Object.entries(item).filter(([name]) => name.startsWith(ENTRY_PREFIX)))
      .map(([, value]) => toMissed(value, 'missedReports.dueBetween'))
      .filter((missed) => missed.job.dueAt >= fromMs && missed.job.dueAt <= toMs)
      .sort((a, b) => a.job.dueAt - b.job.dueAt);
  }

  private async stamp(operation: string, job: ReportJob, field: 'notifiedAt' | 'retriedAt', at: number): Promise<void> {
    await this.conditionalUpdate(
      operation,
      {
        Key: { eventId: itemId(job) },
        UpdateExpression: 'SET #m.#field = :at',
        ConditionExpression: 'attribute_exists(#m)',
        ExpressionAttributeNames: { '#m': entryName(job), '#field': field },
        ExpressionAttributeValues: { ':at': at },
      },
      undefined,
      () => undefined,
    );
  }
}
