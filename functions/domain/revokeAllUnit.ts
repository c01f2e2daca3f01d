import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import * as z from 'zod';
import { linkReusableAfter, revocationOutcomeSchema } from './revocationOutcome';

/**
 * The id of the single-use unit that revokes `delegate` for the revoke-all link `tokenId`: what
 * the queue worker consumes as a `revoke` token before it asks the signer, so the signer's check
 * (a freshly consumed token for this account and delegate) holds for each delegate of a batch.
 * Deterministic: a redelivered job or a double submit names the same unit.
 */
export function revokeAllUnitId(tokenId: string, delegate: string): string {
  return `ra${bytesToHex(sha256(utf8ToBytes(`revoke-all\n${tokenId}\n${delegate.toLowerCase()}`))).slice(0, 40)}`;
}

/** Most delegates one revoke-all form carries: an account with more is revoked a page at a time. */
export const MAX_REVOKE_ALL_KEYS = 50;

/**
 * Most delegates one revoke-all link revokes, over all its pages: its batch (one item) and its
 * result message (one queue message) stay far within their size limits. Past it, a new link.
 */
export const MAX_REVOKE_ALL_BATCH = 200;

/**
 * Where one delegate of a revoke-all batch stands:
 * - `queued`: submitted to the queue (`attempt` counts submissions), not finished;
 * - `done`: the signer answered `outcome`;
 * - `unknown`: the signer could not be reached or did not answer; whether it sent is unknown.
 */
export const revokeAllUnitSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('queued'), attempt: z.number().int().min(1), at: z.number().int().min(0) }),
  ...revokeAllResultOptions(),
]);
export type RevokeAllUnit = z.infer<typeof revokeAllUnitSchema>;

/** How an attempt of a unit ended (`done` or `unknown`), as the worker records it. */
export const revokeAllResultSchema = z.discriminatedUnion('state', revokeAllResultOptions());
export type RevokeAllResult = z.infer<typeof revokeAllResultSchema>;

function revokeAllResultOptions() {
  return [
    z.object({ state: z.literal('done'), attempt: z.number().int().min(1), at: z.number().int().min(0), outcome: revocationOutcomeSchema }),
    z.object({ state: z.literal('unknown'), attempt: z.number().int().min(1), at: z.number().int().min(0), message: z.string() }),
  ] as const;
}

/**
 * Whether a unit may be submitted (again): never submitted, or finished without sending anything
 * in a way a later try can change (the rule of a one-delegate link, `linkReusableAfter`). A unit
 * that sent a transaction, found the delegate gone, was refused, or whose result is unknown is
 * never submitted twice.
 */
export function unitSubmittable(unit: RevokeAllUnit | undefined): boolean {
  if (unit === undefined) return true;
  return unit.state === 'done' && linkReusableAfter(unit.outcome);
}

/** Whether a batch still has work in flight (the result page refreshes while it has). */
export function batchPending(units: Readonly<Record<string, RevokeAllUnit>>): boolean {
  return Object.values(units).some((u) => u.state === 'queued');
}
