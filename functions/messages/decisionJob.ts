import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { decisionIdSchema } from '../domain/protectiveDecision';

/**
 * One delegate of a protective decision, queued by the protection service (SQS FIFO in AWS:
 * group = the account, so its removals run one at a time, in order; deduplicated by decision
 * and delegate). The signer re-checks the decision when it signs.
 */
export const decisionJobSchema = z.strictObject({
  kind: z.literal('decision-unit'),
  account: addressSchema,
  delegate: addressSchema,
  decisionId: decisionIdSchema,
});
export type DecisionJob = z.infer<typeof decisionJobSchema>;
