import * as z from 'zod';
import { addressSchema } from './address';
import { REFUSAL_CODES } from './decisionCheck';
import { UNIT_STATUSES } from './decisionUnit';
import { MAX_NOTICE_DELEGATES } from './protectiveDecision';

const ms = z.number().int().min(0);

/** What an automatic decision came to once every delegate of it ended: the result notice a notify message carries. */
export const decisionResultSchema = z.object({
  decisionId: z.string().min(1).max(128),
  rule: z.enum(['kill-switch', 'unknown-delegate']),
  /** The decision's reason (`kill-switch: drawdown 30.00% now …`, `unknown delegate`). */
  reason: z.string().min(1).max(500),
  units: z
    .array(
      z.object({
        address: addressSchema,
        name: z.string().max(200).nullable(),
        status: z.enum(UNIT_STATUSES),
        /** What happened, in a desk's words. */
        text: z.string().min(1).max(1_000),
        refusal: z.enum(REFUSAL_CODES).nullable(),
      }),
    )
    .min(1)
    .max(MAX_NOTICE_DELEGATES),
  /** The keys the chain lists after it (`null`: the chain could not be read then). */
  left: z
    .array(z.object({ address: addressSchema, name: z.string().max(200).nullable(), isWebClient: z.boolean() }))
    .max(MAX_NOTICE_DELEGATES)
    .nullable(),
  /** Unknown keys: when the watch judges the key again (`null`: it is not tried again automatically). */
  judgedAgainAt: ms.nullable(),
});
export type DecisionResult = z.infer<typeof decisionResultSchema>;
