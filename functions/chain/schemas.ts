import * as z from 'zod';
import type { Address } from 'viem';
import { checksumAddress, isHexAddress } from './checksumAddress';

/** Aggregation intervals accepted by `GET /portfolio`. */
export const INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export const intervalSchema = z.enum(INTERVALS);
export type Interval = z.infer<typeof intervalSchema>;

/** Length of each interval in milliseconds. */
export const INTERVAL_MS: Readonly<Record<Interval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};

/** A hex account address in any case; the output is EIP-55 checksummed. */
export const addressSchema = z
  .string()
  .refine(isHexAddress, { message: 'not a 20-byte hex address' })
  .transform(checksumAddress);

/** Non-negative integer milliseconds. */
export const timestampMsSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A decimal number written as a string: `-12.5`, `0`, `1e-3` are accepted; `abc`, `` and `NaN` are not. */
export const decimalStringSchema = z
  .string()
  .regex(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/, { message: 'not a decimal number string' });

/** A decimal string that may end in a percent sign, as several summary fields are formatted. */
export const maybePercentStringSchema = z
  .string()
  .regex(/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*%?\s*$/, { message: 'not a decimal or percent string' });

export const curvePointSchema = z.object({ timestamp: timestampMsSchema, value: decimalStringSchema });
export type CurvePoint = z.infer<typeof curvePointSchema>;

/** The 17 string-valued fields of PortfolioSummary, in the order the service description lists them. */
export const SUMMARY_STRING_FIELDS = [
  'averageLoss',
  'averageWin',
  'avgDailyPnl',
  'longPnl',
  'losses',
  'maxDrawdownPct',
  'pnl',
  'pnlVolatilityPct',
  'pnlVolatilityUsd',
  'profitFactor',
  'returnPct',
  'sharpeRatio',
  'shortPnl',
  'totalFunding',
  'volume',
  'winRate',
  'wins',
] as const;
export type SummaryStringField = (typeof SUMMARY_STRING_FIELDS)[number];

/** Fields that the chain may format with a trailing `%`. */
export const SUMMARY_PERCENT_FIELDS: ReadonlySet<SummaryStringField> = new Set([
  'avgDailyPnl',
  'maxDrawdownPct',
  'pnlVolatilityPct',
  'returnPct',
]);

/** All summary fields, strings plus `totalTrades`. */
export const SUMMARY_FIELDS = [...SUMMARY_STRING_FIELDS, 'totalTrades'] as const;
export type SummaryField = (typeof SUMMARY_FIELDS)[number];

// Any string field may carry a `%` ("for example" in the service description), so all accept it.
const summaryShape = Object.fromEntries(SUMMARY_STRING_FIELDS.map((f) => [f, maybePercentStringSchema])) as Record<
  SummaryStringField,
  typeof maybePercentStringSchema
>;

/** PortfolioSummary exactly as received: strings stay strings. */
export const portfolioSummarySchema = z.object({
  ...summaryShape,
  totalTrades: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type PortfolioSummary = z.infer<typeof portfolioSummarySchema>;

/** Response of `GET /portfolio`. */
export const portfolioResponseSchema = z.object({
  equity: z.array(curvePointSchema),
  pnl: z.array(curvePointSchema),
  summary: portfolioSummarySchema,
});
export type PortfolioResponse = z.infer<typeof portfolioResponseSchema>;

/** Response of `GET /account-nonce`; further fields are tolerated. */
export const accountNonceSchema = z.looseObject({
  nonce: z.number().int().min(0),
  deferredNonce: z.number().int().min(0),
});
export type AccountNonce = { nonce: number; deferredNonce: number };

const delegateRecordSchema = z.looseObject({
  address: addressSchema,
  expiryMs: timestampMsSchema.nullable().optional().transform((v) => v ?? null),
  name: z.string().nullable().optional().transform((v) => v ?? null),
  isWebClient: z.boolean().nullable().optional().transform((v) => v ?? false),
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One delegate record. The documented key is `address`; a record keyed `manager` (the name the
 * transaction payloads use) is read the same way. Absent `expiryMs`/`name` are `null`, absent `isWebClient` false.
 */
export const delegateSchema = z.preprocess(
  (v) => (isRecord(v) && !('address' in v) && 'manager' in v ? { ...v, address: v.manager } : v),
  delegateRecordSchema,
);
/** One delegate (API-management key) of an account. */
export type Delegate = { address: Address; expiryMs: number | null; name: string | null; isWebClient: boolean };

/** Response of `GET /delegate-traders`: `{"delegates": [...]}` as documented, or a bare array of records. */
export const delegateTradersSchema = z.preprocess(
  (v) => (Array.isArray(v) ? { delegates: v } : v),
  z.looseObject({ delegates: z.array(delegateSchema) }),
);

/**
 * Response of `POST /transaction`: an externally tagged enum (`{"RemoveDelegateManager": {...}}`),
 * a rejection (`{"Err": "..."}`) or a bare string such as `"Ok"`.
 */
export const transactionResponseSchema = z.union([
  z.string(),
  z.record(z.string(), z.unknown()).refine((o) => Object.keys(o).length === 1, {
    message: 'expected an object with exactly one key',
  }),
]);

export type { Address };
