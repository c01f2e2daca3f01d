import * as z from 'zod';
import { faultProfileSchema } from './faults/faultProfile';
import { profileSchema } from './model/params';
import { WIN_RATE_FORMATS } from './portfolio/winRateFormat';

/**
 * Request and response bodies of the simulator's control API, shared by the server (which
 * validates requests) and `SimControlClient` (which validates responses).
 */

const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte hex address');
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 0x followed by 32 bytes of hex');
const amount = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'expected a decimal string')
      .transform(Number),
  ])
  .pipe(z.number().positive().max(1e15));
const ms = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const createAccountRequest = z
  .object({
    /** Keys are derived from the simulator seed and this label; default `account-<n>`. */
    label: z.string().min(1).max(100).optional(),
    /** Use this key instead of a derived one. */
    privateKey: privateKey.optional(),
    /** Equity at the start of history, USD; drawn from the seed when absent. */
    capital: z.number().min(0).max(1e12).optional(),
    /** Days of history before today's midnight (UTC). */
    historyDays: z.number().int().min(0).max(400).optional(),
    profile: profileSchema.optional(),
  })
  .strict();
export type CreateAccountRequest = z.input<typeof createAccountRequest>;

export const createdAccountResponse = z.object({
  address: z.string(),
  privateKey: z.string(),
  label: z.string(),
  historyStartMs: z.number(),
});
export type CreatedAccount = z.infer<typeof createdAccountResponse>;

export const delegateView = z.object({
  address: z.string(),
  expiryMs: z.number().nullable(),
  name: z.string().nullable(),
  isWebClient: z.boolean(),
});
export type DelegateView = z.infer<typeof delegateView>;

export const accountViewResponse = z.object({
  address: z.string(),
  historyStartMs: z.number(),
  /** The latest snapshot (a whole minute, not after now). */
  snapshotMs: z.number(),
  equity: z.number(),
  pnl: z.number(),
  netFlows: z.number(),
  nonce: z.number(),
  deferredNonce: z.number(),
  delegates: z.array(delegateView),
});
export type AccountView = z.infer<typeof accountViewResponse>;

export const addDelegateRequest = z
  .object({
    /** Delegate address; when absent (and no `privateKey`), a key pair is derived from the seed. */
    address: hexAddress.optional(),
    privateKey: privateKey.optional(),
    name: z.string().max(20).nullable().optional(),
    /** Absolute expiry; `null` or absent for none. */
    expiryMs: ms.nullable().optional(),
    /** Expiry relative to the simulated now; alternative to `expiryMs`. */
    expiresInMs: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    isWebClient: z.boolean().optional(),
  })
  .strict()
  .refine((r) => !(r.expiryMs != null && r.expiresInMs !== undefined), { message: 'give expiryMs or expiresInMs, not both' })
  .refine((r) => !(r.address !== undefined && r.privateKey !== undefined), { message: 'give address or privateKey, not both' });
export type AddDelegateRequest = z.input<typeof addDelegateRequest>;

export const addedDelegateResponse = z.object({ delegate: delegateView, privateKey: z.string().nullable() });
export type AddedDelegate = z.infer<typeof addedDelegateResponse>;

export const flowRequest = z
  .object({
    amount,
    /** When it happens, not before now; default now. It shows from the next whole minute. */
    atMs: ms.optional(),
  })
  .strict();
export type FlowRequest = z.input<typeof flowRequest>;

export const drawdownRequest = z
  .object({
    /** Trading loss in percent of equity, 0 < pct < 100. */
    pct: z.number().gt(0).lt(100),
    /** Spread the loss evenly over this long (whole minutes); absent: at once. */
    overMs: z
      .number()
      .int()
      .min(60_000)
      .max(366 * 86_400_000)
      .optional(),
    atMs: ms.optional(),
  })
  .strict();
export type DrawdownRequest = z.input<typeof drawdownRequest>;

export const printRequest = z
  .object({
    /** How far off the printed point is, percent of equity: up if positive, down if negative (above -100). */
    pct: z
      .number()
      .gt(-100)
      .max(1_000)
      .refine((pct) => pct !== 0, 'a print of 0% changes nothing'),
    atMs: ms.optional(),
  })
  .strict();
export type PrintRequest = z.input<typeof printRequest>;

export const eventResponse = z.object({
  address: z.string(),
  /** The first snapshot that shows the change. */
  effectiveMs: z.number(),
  equity: z.number(),
  pnl: z.number(),
  netFlows: z.number(),
});
export type EventApplied = z.infer<typeof eventResponse>;

export const setNonceRequest = z.object({ nonce: ms, deferredNonce: ms.optional() }).strict();
export type SetNonceRequest = z.input<typeof setNonceRequest>;

export const advanceClockRequest = z
  .object({
    ms: z
      .number()
      .int()
      .min(0)
      .max(10 * 366 * 86_400_000),
  })
  .strict();
export const setClockRequest = z.object({ nowMs: ms.optional(), speed: z.number().min(0).max(1_000_000).optional() }).strict();
export type SetClockRequest = z.input<typeof setClockRequest>;
export const clockResponse = z.object({ nowMs: z.number(), speed: z.number() });
export type ClockView = z.infer<typeof clockResponse>;

export const settingsRequest = z
  .object({ rejectionStatus: z.number().int().min(200).max(599).optional(), winRateFormat: z.enum(WIN_RATE_FORMATS).optional() })
  .strict();
export type SettingsRequest = z.input<typeof settingsRequest>;
export const settingsResponse = z.object({ rejectionStatus: z.number(), winRateFormat: z.enum(WIN_RATE_FORMATS) });

export { faultProfileSchema };
export const faultsResponse = z.object({ faults: z.unknown() });

export const stateResponse = z.object({
  seed: z.number(),
  nowMs: z.number(),
  speed: z.number(),
  rejectionStatus: z.number(),
  winRateFormat: z.enum(WIN_RATE_FORMATS),
  unknownAccounts: z.enum(['generate', 'empty']),
  accounts: z.array(z.string()),
  faults: z.unknown(),
});
export type SimState = z.infer<typeof stateResponse>;
