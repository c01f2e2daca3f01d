import type { ProtectionState, ProtectionSwitch } from '../../domain/protectionSwitch';
import type { AuditRepository } from '../../store/auditRepository';

/** The audit trail's partition for stage-wide records (not an account). */
export const STAGE_AUDIT_ADDRESS = 'stage';

/** What became of a `protection on|off`. */
export type ProtectionChange = { kind: 'changed'; from: ProtectionState; to: ProtectionState } | { kind: 'unchanged'; state: ProtectionState };

/**
 * Turns the stage-wide switch of automatic actions on or off. Every change is audited (who,
 * when, from and to) before it is made, and its failure too: no change goes unrecorded.
 */
export async function setProtection(
  deps: { readonly protection: ProtectionSwitch; readonly audit: Pick<AuditRepository, 'append'>; readonly now: () => number },
  request: { readonly state: ProtectionState; readonly by: string },
): Promise<ProtectionChange> {
  const from = await deps.protection.read();
  if (from === request.state) return { kind: 'unchanged', state: from };
  const at = deps.now();
  const record = { id: `protection-${at}`, address: STAGE_AUDIT_ADDRESS, actor: request.by, action: 'protection-switch' };
  await deps.audit.append({ ...record, at, outcome: request.state, message: `${from} → ${request.state} (${deps.protection.location})` });
  try {
    await deps.protection.write(request.state);
  } catch (error) {
    await deps.audit.append({ ...record, id: `${record.id}-failed`, at, outcome: 'failed', message: `${from} → ${request.state} was not made` });
    throw error;
  }
  return { kind: 'changed', from, to: request.state };
}
