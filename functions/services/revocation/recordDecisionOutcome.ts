import { finishedUnit } from '../../domain/decisionUnit';
import type { DecisionRevocationRequest, RevocationOutcome } from '../../domain/revocationOutcome';
import type { ProtectiveDecision } from '../../domain/protectiveDecision';
import { announceDecisionSettled } from './announceDecisionSettled';
import type { DecisionSigningDeps } from './decisionAuthorization';

/** Outcomes after which nothing was sent and a later attempt may succeed: the unit waits for the queue's next delivery. */
export const PASSING_OUTCOMES: ReadonlySet<RevocationOutcome['kind']> = new Set(['busy', 'chain-unreachable', 'signer-unavailable', 'audit-unavailable']);

/** A passing failure in a desk's words, kept on the unit so a refusal for age can say what kept it from being signed. */
function passingText(outcome: RevocationOutcome): string {
  switch (outcome.kind) {
    case 'signer-unavailable':
      return "the account's owner key could not sign (its key service was unavailable)";
    case 'chain-unreachable':
      return 'the chain could not be reached';
    case 'busy':
      return "another revocation of the account held the account's lease";
    default:
      return 'the audit record could not be written, so nothing was sent';
  }
}

/**
 * Records what a signing the signer authorized came to, for one delegate of `decision`: a passing
 * failure leaves the unit `waiting` (the queue redelivers it) and gives the cap slot back unless a
 * transaction of it was already sent; any other outcome is the delegate's final result (a web
 * session the rule may not revoke is a refusal), which spends the cap slot only if a transaction
 * was sent. The decision's result is announced once its last delegate ended.
 */
export async function recordDecisionOutcome(
  deps: DecisionSigningDeps,
  decision: ProtectiveDecision,
  request: DecisionRevocationRequest,
  slot: string,
  ended: { outcome: RevocationOutcome; name: string | null; webSessionRefusal: string | null },
): Promise<void> {
  const { outcome } = ended;
  if (ended.webSessionRefusal === null && PASSING_OUTCOMES.has(outcome.kind)) {
    await deps.decisions.waitUnit(decision.decisionId, request.delegate, passingText(outcome));
    await deps.ledger.settleCap(decision.rule, request.account, slot, false);
    return;
  }
  const refusal =
    ended.webSessionRefusal === null ? null : { code: 'web-session' as const, text: `${ended.webSessionRefusal} (whoever signed it chose that mark)` };
  const finished = await deps.decisions.finishUnit(decision.decisionId, request.delegate, finishedUnit(outcome, deps.now(), ended.name, refusal));
  await deps.ledger.settleCap(decision.rule, request.account, slot, outcome.sent);
  await announceDecisionSettled(deps, decision, finished.kind === 'finished');
}
