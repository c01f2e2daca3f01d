import type { DecisionRevocationRequest, RevocationOutcome } from '../../domain/revocationOutcome';
import { decisionRefusal, type DecisionRefusal } from '../../domain/decisionCheck';
import { refusedUnit, unknownUnit, type DecisionUnit } from '../../domain/decisionUnit';
import { capKey } from '../../domain/protectionCounts';
import type { ProtectiveDecision } from '../../domain/protectiveDecision';
import type { ProtectionSwitch } from '../../domain/protectionSwitch';
import { webSessionRefusal } from '../../domain/webSessionRevocation';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';
import type { ProtectionLedgerRepository } from '../../store/protectionLedgerRepository';
import { announceDecisionSettled, type AnnounceDecisionDeps } from './announceDecisionSettled';

/** What the signer needs to re-check, count and settle an automatic action; without it, every decision request is refused. */
export interface DecisionCheckDeps {
  readonly decisions: Pick<DecisionRepository, 'get' | 'unit' | 'units' | 'beginSigning' | 'waitUnit' | 'finishUnit'>;
  /** The caps and the breaker, which only the signer writes, at signing time. */
  readonly ledger: Pick<ProtectionLedgerRepository, 'countFiring' | 'reserveCap' | 'settleCap'>;
  readonly protection: Pick<ProtectionSwitch, 'read'>;
  /** The account's known keys and announcements (`sentinel delegates expect`): an announced delegate is never revoked automatically, a known key never as unknown. */
  readonly knownDelegates: Pick<KnownDelegatesRepository, 'read'>;
  /** How old a decision may be when signed. */
  readonly maxAgeMs: number;
  /** The breaker of a rule opens when more accounts than this fire within an hour. */
  readonly breakerAccounts: number;
}

/** What the decision path of the signer needs besides its checks: the account, the clock, and where the result notice goes. */
export type DecisionSigningDeps = DecisionCheckDeps &
  Omit<AnnounceDecisionDeps, 'decisions'> & { readonly accounts: Pick<AccountsRepository, 'get'>; readonly now: () => number };

/**
 * Whether an automatic revocation may be signed:
 * - `authorized`: the delegate is taken for signing (its unit is `signing`), the firing counted
 *   and a cap slot (`slot`) reserved; `webSession` is the refusal that applies if the chain lists
 *   the delegate as a web session when the signer reads it (`null`: the settings allow it);
 * - `refused`: the signer will not sign it; the unit's result is recorded (and the decision's
 *   result announced once every delegate ended) unless the request names no delegate of a decision;
 * - `answered`: the unit is done (a redelivery: its recorded outcome) or being signed by another
 *   invocation (`busy`); nothing new is recorded.
 */
export type DecisionAuthorization =
  | { kind: 'authorized'; decision: ProtectiveDecision; slot: string; webSession: string | null }
  | { kind: 'refused'; refusal: DecisionRefusal; decisionReason: string | null }
  | { kind: 'answered'; outcome: RevocationOutcome; note: string; decisionReason: string };

/** How long a unit may stay `signing` before a redelivery takes it as stopped midway: twice the signer's longest run. */
export const STALLED_SIGNING_MS = 60_000;

const BUSY: RevocationOutcome = { kind: 'busy', sent: false };
const UNSETTLED: RevocationOutcome = { kind: 'not-authorized', sent: false };
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Re-checks at signing time the decision a `{account, delegate, decisionId}` request names:
 * its unit first (done: answer as recorded; being signed: busy, or, past `STALLED_SIGNING_MS`,
 * settled as stopped midway), then `decisionRefusal` on the decision, the switch, the account, its
 * known keys and announcements read afresh; then counts the firing against the rule's breaker
 * and reserves the account's cap slot, both at this moment and in the signer's own items; then
 * takes the delegate for signing, once.
 */
export async function authorizeDecision(deps: DecisionSigningDeps, request: DecisionRevocationRequest): Promise<DecisionAuthorization> {
  const [decision, unit] = await Promise.all([deps.decisions.get(request.decisionId), deps.decisions.unit(request.decisionId, request.delegate)]);
  const now = deps.now();
  if (decision !== null && unit !== null && decision.delegates.includes(request.delegate)) {
    const answered = await answerFromUnit(deps, decision, request, unit, now);
    if (answered !== null) return answered;
  }
  const [tracked, known, protection] = await Promise.all([
    deps.accounts.get(request.account),
    deps.knownDelegates.read(request.account),
    deps.protection.read(),
  ]);
  const checked = decisionRefusal({
    ...request,
    decision,
    tracked,
    announcements: known.announcements,
    known: known.known,
    protection,
    now,
    maxAgeMs: deps.maxAgeMs,
    lastFailure: unit?.state === 'waiting' ? unit.lastFailure : null,
  });
  if (checked !== null || decision === null || tracked === null) {
    const refusal = checked ?? { code: 'invalid' as const, text: 'the decision or the account is gone' };
    // A request naming no delegate of a decision has no unit to settle.
    if (refusal.code !== 'invalid' && decision !== null) await refuse(deps, decision, request, refusal, now);
    return { kind: 'refused', refusal, decisionReason: decision?.reason ?? null };
  }

  const fired = await deps.ledger.countFiring(decision.rule, { decisionId: decision.decisionId, account: request.account, at: now }, now, deps.breakerAccounts);
  if (fired.kind === 'opened') {
    deps.counters?.count('ProtectionBreakerOpened');
    deps.log.error('protection: the breaker opened, acting on none', { rule: decision.rule, accounts: fired.accounts, decisionId: decision.decisionId });
  }
  if (fired.kind !== 'counted') {
    const closes = fired.closesAt === null ? '' : `; it closes at ${iso(fired.closesAt)} unless more fire`;
    const refusal: DecisionRefusal = {
      code: 'breaker-open',
      text: `the breaker was open: ${fired.accounts} accounts fired ${decision.rule} within an hour, which points to a data fault, so automatic protection acts on none${closes}`,
    };
    await refuse(deps, decision, request, refusal, fired.closesAt ?? now);
    return { kind: 'refused', refusal, decisionReason: decision.reason };
  }
  const slot = capKey(decision.rule, decision.decisionId, request.delegate);
  const reserved = await deps.ledger.reserveCap(decision.rule, request.account, { key: slot, decisionId: decision.decisionId }, now);
  if (reserved.kind === 'capped') {
    const what = decision.rule === 'kill-switch' ? 'kill-switch firing' : 'unknown-key revocations';
    const refusal: DecisionRefusal = {
      code: 'capped',
      text: `the account's cap was reached: ${reserved.limit} ${what} per 24 hours (${reserved.used} used; the next slot frees at ${iso(reserved.freesAt)})`,
    };
    await refuse(deps, decision, request, refusal, reserved.freesAt);
    return { kind: 'refused', refusal, decisionReason: decision.reason };
  }
  const began = await deps.decisions.beginSigning(decision.decisionId, request.delegate);
  if (began.kind === 'taken') {
    // Another invocation took it between the read and now: it settles the slot too.
    const answered = began.unit === null ? null : await answerFromUnit(deps, decision, request, began.unit, now);
    return answered ?? { kind: 'answered', outcome: BUSY, note: 'another invocation is signing it', decisionReason: decision.reason };
  }
  return { kind: 'authorized', decision, slot, webSession: webSessionRefusal(decision.rule, tracked) };
}

/** The answer a unit already taken gives: its recorded outcome when done (announced again), busy while young, settled as unknown once stalled; `null` when it waits (sign again). */
async function answerFromUnit(
  deps: DecisionSigningDeps,
  decision: ProtectiveDecision,
  request: DecisionRevocationRequest,
  unit: DecisionUnit,
  now: number,
): Promise<DecisionAuthorization | null> {
  if (unit.state === 'waiting') return null;
  if (unit.state === 'done') {
    await announceDecisionSettled(deps, decision, false);
    return { kind: 'answered', outcome: unit.result.outcome ?? UNSETTLED, note: `already settled: ${unit.result.text}`, decisionReason: decision.reason };
  }
  if (now - unit.at < STALLED_SIGNING_MS) return { kind: 'answered', outcome: BUSY, note: 'another invocation is signing it', decisionReason: decision.reason };
  const finished = await deps.decisions.finishUnit(decision.decisionId, request.delegate, unknownUnit(now));
  await announceDecisionSettled(deps, decision, finished.kind === 'finished');
  return { kind: 'answered', outcome: UNSETTLED, note: 'an earlier signing of it stopped midway; its result is unknown', decisionReason: decision.reason };
}

/** Records a refused delegate and announces the decision's result if it was the last to end. */
async function refuse(deps: DecisionSigningDeps, decision: ProtectiveDecision, request: DecisionRevocationRequest, refusal: DecisionRefusal, retryAt: number) {
  const finished = await deps.decisions.finishUnit(decision.decisionId, request.delegate, refusedUnit(refusal, retryAt));
  await announceDecisionSettled(deps, decision, finished.kind === 'finished');
}
