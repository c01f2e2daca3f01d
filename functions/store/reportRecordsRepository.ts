import * as z from 'zod';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { intervalSchema, type Interval } from '../domain/interval';
import { addDays, type LocalDate } from '../domain/localTime';
import { portfolioSummarySchema, type PortfolioSummary } from '../domain/portfolioSummary';
import { REPORT_WINDOW_KEYS, type ReportWindowKey } from '../domain/reportWindows';
import { batchGetAll } from './batchGet';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';
import { storeCall } from './errors';
import { tableName } from './tableDefinitions';
import { isLive, toTtlSeconds } from './ttl';

/** One window's summary as the chain sent it for a report. */
export interface ReportWindowRecord {
  readonly key: ReportWindowKey;
  readonly fromMs: number;
  readonly toMs: number;
  readonly interval: Interval;
  /** `null` when the chain had no point in the window. */
  readonly summary: PortfolioSummary | null;
}

/** What a report stored for the next one to compare with: its windows' summaries as received. */
export interface ReportRecord {
  readonly address: string;
  /** The local day the report covered. */
  readonly coveredDate: LocalDate;
  /** The zone its windows were aligned in (the account's, or a recipient's own). */
  readonly timeZone: string;
  readonly savedAt: number;
  readonly windows: readonly ReportWindowRecord[];
}

const windowSchema = z.object({
  key: z.enum(REPORT_WINDOW_KEYS),
  fromMs: z.number().int().min(0),
  toMs: z.number().int().min(0),
  interval: intervalSchema,
  summary: portfolioSummarySchema.nullable(),
});
const itemSchema = z.object({
  eventId: z.string().regex(/^report-windows:/),
  kind: z.literal('report-windows'),
  address: z.string().min(1),
  coveredDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Absent on records written before reports had zones of their own (they were in the account's zone). */
  timeZone: z.string().min(1).optional(),
  savedAt: z.number().int().min(0),
  windows: z.array(windowSchema).max(REPORT_WINDOW_KEYS.length),
  expiresAt: z.number().min(0),
});

/** How many days back `latestBefore` looks for the previous report. */
export const PREVIOUS_REPORT_LOOKBACK_DAYS = 7;
/** Default retention, as delivery records. */
const RETENTION_MS = 90 * 86_400_000;

const eventId = (address: string, timeZone: string, date: LocalDate) => `report-windows:${address}:${timeZone}:${date}`;
/** The key records had before they were kept per zone; still read, for the days they cover. */
const legacyEventId = (address: string, date: LocalDate) => `report-windows:${address}:${date}`;

/**
 * The window summaries of each sent report, kept for the next report's changes. Items live in the
 * `deliveries` table (key `eventId` = `report-windows:<address>:<zone>:<covered date>`, kept like delivery records, 90 days),
 * which the report job already reads and writes; one per account, zone and covered day (a recipient
 * with its own zone compares with its own previous windows), overwritten by a rerun or a forced
 * report of the same day.
 */
export class ReportRecordsRepository {
  private readonly table: string;
  private readonly now: () => number;
  private readonly retentionMs: number;

  constructor(
    private readonly client: DynamoDBDocumentClient,
    prefix: string,
    options: RepositoryOptions & { readonly retentionMs?: number } = {},
  ) {
    this.table = tableName(prefix, 'deliveries');
    this.now = options.now ?? Date.now;
    this.retentionMs = options.retentionMs ?? RETENTION_MS;
  }

  /** Stores (or replaces) the record of one covered day. */
  async put(record: ReportRecord): Promise<void> {
    const item = parseItem(
      itemSchema,
      {
        ...record,
        eventId: eventId(record.address, record.timeZone, record.coveredDate),
        kind: 'report-windows',
        expiresAt: toTtlSeconds(record.savedAt + this.retentionMs),
      },
      'reportRecords.put',
    );
    await storeCall('reportRecords.put', () => this.client.send(new PutCommand({ TableName: this.table, Item: item })));
  }

  /** The record in `timeZone` of the newest covered day before `coveredDate`, within `PREVIOUS_REPORT_LOOKBACK_DAYS`; null if none. */
  async latestBefore(address: string, timeZone: string, coveredDate: LocalDate): Promise<ReportRecord | null> {
    const days = Array.from({ length: PREVIOUS_REPORT_LOOKBACK_DAYS }, (_, i) => addDays(coveredDate, -1 - i));
    const keys = days.flatMap((day) => [{ eventId: eventId(address, timeZone, day) }, { eventId: legacyEventId(address, day) }]);
    const items = await batchGetAll(this.client, this.table, keys, 'reportRecords.latestBefore');
    const now = this.now();
    const records = items
      .map((item) => parseItem(itemSchema, item, 'reportRecords.latestBefore'))
      .filter((r) => isLive(r.expiresAt, now) && r.address === address && (r.timeZone === undefined || r.timeZone === timeZone))
      // Newest day first; on the same day a record of this zone before a legacy one.
      .sort((a, b) => (a.coveredDate !== b.coveredDate ? (a.coveredDate < b.coveredDate ? 1 : -1) : a.timeZone === undefined ? 1 : -1));
    const newest = records[0];
    if (!newest) return null;
    return { address: newest.address, coveredDate: newest.coveredDate, timeZone, savedAt: newest.savedAt, windows: newest.windows };
  }
}
