import type { AuditRecord } from './auditRepository';

/** One line of an account's audit trail, as a reader (CLI, status) shows it. */
export type AuditEntry =
  /** An attempt that signed nothing. */
  | { kind: 'attempt'; record: AuditRecord }
  /** A signed transaction: its intent and, once recorded, its outcome (`null`: never recorded; check the chain). */
  | { kind: 'transaction'; intent: AuditRecord; outcome: AuditRecord | null }
  /** An outcome whose intent is not among the records read (it fell outside the page read). */
  | { kind: 'orphan-outcome'; record: AuditRecord };

/**
 * Pairs each transaction's intent with its outcome (same account, same `txHash`), keeping the
 * order of `records` (as listed, newest first) by the intent's position.
 */
export function auditTrail(records: readonly AuditRecord[]): AuditEntry[] {
  const outcomes = new Map<string, AuditRecord>();
  for (const r of records) if (r.kind === 'outcome' && r.txHash !== undefined) outcomes.set(`${r.address}#${r.txHash}`, r);
  const paired = new Set<string>();
  const entries: AuditEntry[] = [];
  for (const r of records) {
    if (r.kind === 'intent' && r.txHash !== undefined) {
      const key = `${r.address}#${r.txHash}`;
      const outcome = outcomes.get(key) ?? null;
      if (outcome) paired.add(key);
      entries.push({ kind: 'transaction', intent: r, outcome });
    } else if (r.kind === 'attempt') {
      entries.push({ kind: 'attempt', record: r });
    }
  }
  for (const r of records) {
    if (r.kind === 'outcome' && !paired.has(`${r.address}#${r.txHash ?? ''}`)) entries.push({ kind: 'orphan-outcome', record: r });
  }
  return entries;
}
