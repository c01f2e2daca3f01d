import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { ProtectiveRule } from './protectiveAction';

/** What makes one automatic decision what it is: its account, rule and delegate, and the occasion's time. */
export interface DecisionOccasion {
  readonly account: string;
  readonly rule: ProtectiveRule;
  /** The one delegate it is about (unknown keys); `null` for a decision about every key (the kill switch). */
  readonly delegate: string | null;
  /**
   * When it was seen: the crossing's time for the kill switch, the time of the check that sighted
   * the key for unknown keys. A redelivered collect message has the same one.
   */
  readonly at: number;
  /**
   * Which arming of the rule it belongs to (the kill switch's state version when it fired), so a
   * re-armed kill switch that fires on the same crossing makes a new decision; 0 when not versioned.
   */
  readonly generation: number;
}

/**
 * The decision id of an occasion: 32 hex characters of SHA-256 over its fields. Deterministic, so
 * a redelivered collect message asks for the decision it already made (the conditional write finds
 * it) and can neither make a second one nor take a second cap slot.
 */
export function protectiveDecisionId(occasion: DecisionOccasion): string {
  const parts = [
    'protective-decision',
    occasion.account.toLowerCase(),
    occasion.rule,
    occasion.delegate?.toLowerCase() ?? '*',
    occasion.at,
    occasion.generation,
  ];
  return bytesToHex(sha256(utf8ToBytes(parts.join('\n')))).slice(0, 32);
}
