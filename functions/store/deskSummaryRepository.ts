import * as z from 'zod';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { intervalSchema } from '../domain/interval';
import { killSwitchStateSchema } from '../domain/killSwitchDecision';
import { latestUnknownKeyDecisionSchema } from '../domain/recentUnknownKeyDecision';
import { batchGetAll } from './batchGet';
import { DynamoRepository } from './dynamoRepository';
import { parseItem } from './parseItem';
import type { RepositoryOptions } from './repositoryOptions';

/**
 * Partition-key prefix of the desk summaries in the `alerts` table (`desk-summary#<account>`),
 * apart from the account's alert states, so IAM can let the desk page read these items and no
 * other (`dynamodb:LeadingKeys` `desk-summary#*`).
 */
export const DESK_SUMMARY_KEY_PREFIX = 'desk-summary#';
/** The sort key (`rule`) of the one summary item per account. */
export const DESK_SUMMARY_RULE = 'desk-summary';

/** A number DynamoDB and its document client store exactly: 0, or a finite magnitude in [1e-130, 1e125]. */
const storable = z
  .number()
  .refine((x) => x === 0 || (Number.isFinite(x) && Math.abs(x) >= 1e-130 && Math.abs(x) < 1e125), { message: 'not storable in DynamoDB' });
const time = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const dayFiguresSchema = z.object({
  startAt: time,
  endAt: time,
  equityStart: storable,
  equityEnd: storable,
  pnl: storable,
  returnPct: storable,
  netFlows: storable,
  deposits: storable,
  withdrawals: storable,
});

/**
 * What collect stores for the desk's overview after a poll: each figure as the overview computes
 * it from the store at the poll's time, and the inputs of what depends on the viewing time
 * (`polledAt` for staleness, the local date the day figures belong to, the expiry itself).
 */
export const deskSummarySchema = z.object({
  v: z.literal(1),
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  /** The interval and zone the figures were measured at: a summary of others is not used. */
  interval: intervalSchema,
  timezone: z.string().min(1).max(64),
  /** Collect's clock when it was computed. */
  computedAt: time,
  /** The latest snapshot's `polledAt` (what staleness is measured from) and when it was fetched; `null` before one. */
  polledAt: time.nullable(),
  lastPollAt: time.nullable(),
  /** The newest stored point, and its equity. */
  asOf: time.nullable(),
  equity: storable.nullable(),
  /** The local day in progress at `computedAt` and its figures as the daily report measures them. */
  today: z.object({ localDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), figures: dayFiguresSchema.nullable() }),
  drawdownPct: storable.nullable(),
  breachedLevels: z.array(storable).max(20),
  killSwitch: killSwitchStateSchema.nullable(),
  /**
   * The account's latest unknown-key decision (id and time) while the overview may still show it;
   * left out otherwise, so a summary without one is no larger (its write units unchanged).
   */
  unknownKeyDecision: latestUnknownKeyDecisionSchema.optional(),
  soonestExpiry: z.object({ address: z.string().max(64), name: z.string().max(200).nullable(), expiryMs: time }).nullable(),
  delegates: z.number().int().min(0),
  spark: z.array(storable).max(1_000),
});
export type DeskSummary = z.infer<typeof deskSummarySchema>;

const itemSchema = deskSummarySchema.extend({ rule: z.literal(DESK_SUMMARY_RULE) });

function keyOf(address: string): { address: string; rule: string } {
  return { address: `${DESK_SUMMARY_KEY_PREFIX}${address}`, rule: DESK_SUMMARY_RULE };
}

/** Per account, the desk overview's figures as of its latest poll (items `desk-summary#<account>` of `alerts`). */
export class DeskSummaryRepository extends DynamoRepository {
  constructor(client: DynamoDBDocumentClient, prefix: string, options: RepositoryOptions = {}) {
    super(client, prefix, 'alerts', options);
  }

  /** Replaces the account's summary. A summary that does not validate is refused with a `StoreError` naming the field, and nothing is written. */
  async put(summary: DeskSummary): Promise<void> {
    const valid = parseItem(deskSummarySchema, summary, 'deskSummaries.put');
    await this.call('deskSummaries.put', () => this.client.send(new PutCommand({ TableName: this.table, Item: { ...valid, ...keyOf(valid.address) } })));
  }

  /**
   * The summaries of `addresses` (`BatchGetItem`, 100 keys a call, eventually consistent: half the
   * read units, and a summary written in the last second may show the poll before), by account. An
   * account without one, or whose item does not validate, is left out: its reader measures it itself.
   */
  async getMany(addresses: readonly string[]): Promise<Map<string, DeskSummary>> {
    const items = await batchGetAll(this.client, this.table, addresses.map(keyOf), 'deskSummaries.getMany', { ...this.options.batch, consistent: false });
    const found = new Map<string, DeskSummary>();
    for (const item of items) {
      const parsed = itemSchema.safeParse({ ...item, address: String(item['address']).slice(DESK_SUMMARY_KEY_PREFIX.length) });
      if (parsed.success) {
        const { rule: _rule, ...summary } = parsed.data;
        found.set(summary.address, summary);
      }
    }
    return found;
  }
}
