import * as z from 'zod';

/** Chain routes a fault profile can target. */
export const CHAIN_ROUTES = ['portfolio', 'account-nonce', 'delegate-traders', 'transaction', 'batch_transactions'] as const;
export type ChainRoute = (typeof CHAIN_ROUTES)[number];

/** What an injected fault does to one response. */
export const FAULT_KINDS = ['ok', 'error500', 'rateLimit', 'malformed', 'truncate', 'hang'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

const probability = z.number().min(0).max(1);

/**
 * Faults for one route (or all). Latency is `latencyMs` plus a uniform draw in [0, jitterMs].
 * The rates are probabilities per request (their sum at most 1): `error500` answers 500
 * text/plain, `rateLimit` 429 with `Retry-After: retryAfterSeconds`, `malformed` a complete 200
 * whose JSON is cut in half, `truncate` a 200 whose connection drops mid-body, `hang` never
 * answers. `error500`, `rateLimit` and `hang` happen before the request is handled; `malformed`
 * and `truncate` after it (a transaction is then executed but its answer is lost). `script`
 * lists the outcomes of the next requests, consumed one per request before the rates apply.
 */
export const faultRuleSchema = z
  .object({
    latencyMs: z.number().min(0).max(120_000).default(0),
    jitterMs: z.number().min(0).max(120_000).default(0),
    error500: probability.default(0),
    rateLimit: probability.default(0),
    retryAfterSeconds: z.number().int().min(0).max(3600).default(1),
    malformed: probability.default(0),
    truncate: probability.default(0),
    hang: probability.default(0),
    script: z.array(z.enum(FAULT_KINDS)).max(10_000).default([]),
  })
  .strict()
  .refine((r) => r.error500 + r.rateLimit + r.malformed + r.truncate + r.hang <= 1, {
    message: 'the fault rates must add up to at most 1',
  });
export type FaultRule = z.output<typeof faultRuleSchema>;
export type FaultRuleInput = z.input<typeof faultRuleSchema>;

/** A rule for every chain route, and per-route rules that replace it for their route. */
export const faultProfileSchema = z
  .object({
    global: faultRuleSchema.optional(),
    routes: z.partialRecord(z.enum(CHAIN_ROUTES), faultRuleSchema).optional(),
  })
  .strict();
export type FaultProfile = z.output<typeof faultProfileSchema>;
export type FaultProfileInput = z.input<typeof faultProfileSchema>;

/** What to do with one request. */
export interface FaultDecision {
  delayMs: number;
  kind: FaultKind;
  retryAfterSeconds: number;
}
