import * as z from 'zod';
import { addressSchema, type Address } from '../domain/address';
import { timestampMsSchema, curvePointSchema } from '../domain/curvePoint';
import { portfolioSummarySchema } from '../domain/portfolioSummary';
import { cleanDelegateName } from '../domain/delegateName';

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
  expiryMs: timestampMsSchema
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  // Chosen by whoever signed the DelegateManager: cleaned here, at the boundary (`cleanDelegateName`).
  name: z
    .string()
    .nullable()
    .optional()
    .transform((v) => cleanDelegateName(v ?? null)),
  isWebClient: z
    .boolean()
    .nullable()
    .optional()
    .transform((v) => v ?? false),
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One delegate record. The documented key is `address`; a record keyed `manager` (the name the
 * transaction payloads use) is read the same way. Absent `expiryMs`/`name` are `null`, absent `isWebClient` false;
 * a name is cleaned of control, bidi and zero-width characters and newlines, and capped (`cleanDelegateName`).
 */
export const delegateSchema = z.preprocess(
  (v) => (isRecord(v) && !('address' in v) && 'manager' in v ? { ...v, address: v.manager } : v),
  delegateRecordSchema,
);
/** One delegate (API-management key) of an account. */
export type Delegate = { address: Address; expiryMs: number | null; name: string | null; isWebClient: boolean };

/** Response of `GET /delegate-traders`: `{"delegates": [...]}` as documented, or a bare array of records. */
export const delegateTradersSchema = z.preprocess((v) => (Array.isArray(v) ? { delegates: v } : v), z.looseObject({ delegates: z.array(delegateSchema) }));

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
