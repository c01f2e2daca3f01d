import type { TrackedAccount } from '../../domain/account';
import { decisionSettlement, type DecisionSettlement } from '../../domain/decisionSettlement';
import type { KillSwitchState } from '../../domain/killSwitchDecision';
import type { Repositories } from '../../store/repositories';
import { readKillSwitchState } from '../../store/killSwitchStateItem';

/** An unknown key asked about, and what became of its latest decision (`null` while not settled). */
export interface UnknownKeyDecision {
  readonly delegate: string;
  readonly decisionId: string;
  readonly judgedAgain: boolean;
  readonly settlement: DecisionSettlement | null;
}

/** Where an account's automatic protection stands: the kill switch's state and its decision's result, and the unknown keys asked about. */
export interface ProtectionStatus {
  readonly killSwitch: { readonly state: KillSwitchState | null; readonly settlement: DecisionSettlement | null } | null;
  readonly unknownKeys: readonly UnknownKeyDecision[];
}

/** The result of the protective decision `decisionId` as the signer settled it; `null` while it is not settled, or when it is not kept. */
export async function settlementOf(repos: Pick<Repositories, 'decisions'>, decisionId: string): Promise<DecisionSettlement | null> {
  const decision = await repos.decisions.get(decisionId);
  return decision === null ? null : decisionSettlement(decision, await repos.decisions.units(decision));
}

/**
 * Reads, for `status` and `accounts show`, the kill switch's state (when it is on) and, for a
 * `revoking` state, its decision's result as the signer settled it; and, when unknown-key
 * protection is on, each unknown key a decision was queued for, with that decision's result.
 */
export async function protectionStatus(
  repos: Pick<Repositories, 'alerts' | 'decisions' | 'knownDelegates'>,
  account: Pick<TrackedAccount, 'address' | 'killSwitch' | 'revokeUnknown'>,
): Promise<ProtectionStatus> {
  let killSwitch: ProtectionStatus['killSwitch'] = null;
  if (account.killSwitch !== null) {
    const { state } = await readKillSwitchState(repos.alerts, account.address);
    killSwitch = { state, settlement: state?.status === 'revoking' ? await settlementOf(repos, state.decisionId) : null };
  }
  const unknownKeys: UnknownKeyDecision[] = [];
  if (account.revokeUnknown !== 'off') {
    const { unknownSeen } = await repos.knownDelegates.read(account.address);
    for (const seen of unknownSeen) {
      if (seen.decisionId === undefined) continue;
      unknownKeys.push({
        delegate: seen.delegate,
        decisionId: seen.decisionId,
        judgedAgain: seen.judgedAgain === true,
        settlement: await settlementOf(repos, seen.decisionId),
      });
    }
  }
  return { killSwitch, unknownKeys };
}
