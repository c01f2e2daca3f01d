import * as z from 'zod';
import { addressSchema } from '../domain/address';

/**
 * One delegate of a revoke-all batch, queued by the revoke-all page (SQS FIFO in AWS: group = the
 * account, so an account's removals run one at a time in order; deduplicated by batch, delegate
 * and attempt).
 */
export const revokeAllJobSchema = z.strictObject({
  kind: z.literal('revoke-all-unit'),
  account: addressSchema,
  delegate: addressSchema,
  /** The revoke-all link's token id (the batch). */
  tokenId: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/),
  /** Which submission of the unit this is (a retry from the page is the next one). */
  attempt: z.number().int().min(1),
  /** The link's expiry, epoch ms, as the page read it (the worker uses the batch's own). */
  expiresAt: z.number().int().min(0),
  /** The signed revoke-all link the person confirmed: the signer verifies it itself. A capability: never logged. */
  token: z.string().min(1).max(2_048),
});
export type RevokeAllJob = z.infer<typeof revokeAllJobSchema>;
