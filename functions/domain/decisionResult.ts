import * as z from 'zod';
import { addressSchema } from './address';
import { REFUSAL_CODES } from './decisionCheck';
import { UNIT_STATUSES } from './decisionUnit';
import { MAX_NOTICE_DELEGATES } from './protectiveDecision';

const ms = z.number().int().min(0);
const count = z.number().int().min(0);

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
  /**
   * What the lists leave out (each holds at most `MAX_NOTICE_DELEGATES`): the decision's other keys
   * by result, and the other keys the chain lists. Absent when every key is listed.
   */
  unlisted: z.object({ revoked: count, gone: count, refused: count, failed: count, left: count }).optional(),
  /** Unknown keys: when the watch judges the key again (`null`: it is not tried again automatically). */
  judgedAgainAt: ms.nullable(),
});
export type DecisionResult = z.infer<typeof decisionResultSchema>;

type Unit = DecisionResult['units'][number];

/**
 * A result as its notice carries it: at most `MAX_NOTICE_DELEGATES` keys of the decision, those
 * not revoked first (the desk must act on them), and as many of the keys still listed; the others
 * counted in `unlisted`, so a decision on any number of keys ends in one valid notice that counts
 * each. A result within the bounds is returned as it is, in its order.
 */
export function resultForNotice(result: Omit<DecisionResult, 'unlisted'>): DecisionResult {
  const left = result.left ?? [];
  if (result.units.length <= MAX_NOTICE_DELEGATES && left.length <= MAX_NOTICE_DELEGATES) return result;
  const removed = (u: Unit) => u.status === 'revoked' || u.status === 'gone';
  const ordered = [...result.units.filter((u) => !removed(u)), ...result.units.filter(removed)];
  const units = ordered.slice(0, MAX_NOTICE_DELEGATES);
  const rest = ordered.slice(MAX_NOTICE_DELEGATES);
  const of = (status: Unit['status']) => rest.filter((u) => u.status === status).length;
  return {
    ...result,
    units,
    left: result.left === null ? null : left.slice(0, MAX_NOTICE_DELEGATES),
    unlisted: { revoked: of('revoked'), gone: of('gone'), refused: of('refused'), failed: of('failed'), left: Math.max(0, left.length - MAX_NOTICE_DELEGATES) },
  };
}
