import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { RevokeAllUnit } from './revokeAllUnit';
import { unitText } from './revokeAllUnitText';
import { batchLinkClosed, revokeAllNextStep, type RevokeAllNextStep } from './revokeAllNextStep';

/** How one delegate of a settled batch ended, as the result email groups it. */
export type RevokeAllRowOutcome = 'revoked' | 'already-revoked' | 'rejected' | 'unconfirmed' | 'not-sent' | 'unknown';

/** One delegate's line of the result email. */
export interface RevokeAllResultRow {
  readonly address: string;
  readonly outcome: RevokeAllRowOutcome;
  /** The unit's result in words (as the result page says it). */
  readonly text: string;
  readonly nonce: number | null;
  /** What the key calls for next (`null`: removed); `retry-on-page` only while no unit's refusal says the link stopped working. */
  readonly next: RevokeAllNextStep | null;
}

/** A batch with nothing queued: its rows, and a key naming this settlement (a retry that settles again has another). */
export interface RevokeAllSettlement {
  readonly key: string;
  readonly rows: readonly RevokeAllResultRow[];
}

/**
 * The settlement of a revoke-all batch once no delegate is queued, or `null` while work is
 * pending (or nothing was submitted). Rows in address order; the key hashes the link's token id
 * with each unit's attempt and state, so every delivery that sees the same settled batch names
 * the same result email (sent once per recipient) and the token id never appears in it.
 */
export function revokeAllSettlement(tokenId: string, units: Readonly<Record<string, RevokeAllUnit>>): RevokeAllSettlement | null {
  const entries = Object.entries(units).sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return null;
  const rows: RevokeAllResultRow[] = [];
  const linkWorks = !batchLinkClosed(units);
  for (const [address, unit] of entries) {
    if (unit.state === 'queued') return null;
    rows.push({
      address,
      outcome: rowOutcome(unit),
      text: unitText(unit),
      nonce: unit.state === 'done' && 'nonce' in unit.outcome ? unit.outcome.nonce : null,
      next: revokeAllNextStep(unit, linkWorks),
    });
  }
  const signature = entries.map(([address, unit]) => `${address.toLowerCase()}:${unit.attempt}:${unit.state}`).join('\n');
  return { key: bytesToHex(sha256(utf8ToBytes(`revoke-all-result\n${tokenId}\n${signature}`))).slice(0, 32), rows };
}

function rowOutcome(unit: Exclude<RevokeAllUnit, { state: 'queued' }>): RevokeAllRowOutcome {
  if (unit.state === 'unknown') return 'unknown';
  const kind = unit.outcome.kind;
  if (kind === 'revoked' || kind === 'already-revoked' || kind === 'rejected' || kind === 'unconfirmed') return kind;
  return 'not-sent';
}
