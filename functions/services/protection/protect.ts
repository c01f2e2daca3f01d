import type { ProtectiveActionOutcome, ProtectiveActionRequest, ProtectiveRevoker } from '../../domain/protectiveAction';
import { isKeptDelegate, protectionArming } from '../../domain/protectionArming';
import { MAX_DECISION_DELEGATES, type ProtectiveDecision } from '../../domain/protectiveDecision';
import { protectiveDecisionId } from '../../domain/protectiveDecisionId';
import type { ProtectionSwitch } from '../../domain/protectionSwitch';
import type { DecisionJob } from '../../messages/decisionJob';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { Counters, Log } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';

/** The ports of the protection service. */
export interface ProtectDeps {
  readonly protection: Pick<ProtectionSwitch, 'read'>;
  readonly accounts: Pick<AccountsRepository, 'get'>;
  /** Where announcements are kept: an announced delegate is left out. */
  readonly knownDelegates: Pick<KnownDelegatesRepository, 'read'>;
  /** Decisions: a redelivered check reads the one it made (`get`); a new one is written once (`put`). */
  readonly decisions: Pick<DecisionRepository, 'get' | 'put'>;
  /** The per-account FIFO queue of decision units (SQS FIFO in AWS, in-process locally). */
  readonly queue: MessageQueue<DecisionJob>;
  readonly log: Log;
  readonly counters?: Counters;
}

/**
 * The protection service both rule evaluators call (`ProtectiveRevoker`): decides, in this
 * order, whether an automatic revocation goes ahead: the stage-wide switch (`protection-off`),
 * the account's arming for the rule (`not-armed`), kept and announced keys left out
 * (`nothing-to-revoke`), more keys than one decision holds (`capped`, `MAX_DECISION_DELEGATES`),
 * a dry run (its decision recorded, `dry-run`, nothing queued). Then it
 * writes the immutable decision, under an id derived from the request's occasion, and queues one
 * unit per delegate, in order, grouped by account. A redelivered collect message (its first run
 * stopped before committing) has the same occasion: it finds the decision it made and answers as
 * that one did, whatever the chain lists now, and queues its units again, which the FIFO queue and
 * the signer's per-delegate units make a no-op. The caps and the breaker are not counted here: the signer counts both when
 * it signs, re-checks the decision, and announces its result once every delegate ended. Only
 * `queued` revokes anything; the caller sends the notice of every outcome.
 */
export function protectionService(deps: ProtectDeps): ProtectiveRevoker {
  return (request) => protect(deps, request);
}

async function protect(deps: ProtectDeps, request: ProtectiveActionRequest): Promise<ProtectiveActionOutcome> {
  const about = { account: request.account, rule: request.rule };
  const decisionId = protectiveDecisionId({
    account: request.account,
    rule: request.rule,
    delegate: request.rule === 'unknown-delegate' ? (request.delegates[0] ?? null) : null,
    ...request.occasion,
  });
  // A redelivered check (its first run stopped before committing) gets the decision it made, whatever the chain lists now.
  const made = await deps.decisions.get(decisionId);
  if (made !== null) {
    deps.log.info('protection: the decision exists (a redelivered check); its units are queued again', { ...about, decisionId });
    if (made.dryRun) return count(deps, { kind: 'dry-run', decisionId, delegates: made.delegates });
    await queueUnits(deps, made);
    return count(deps, { kind: 'queued', decisionId, delegates: made.delegates });
  }
  if ((await deps.protection.read()) !== 'on') return count(deps, { kind: 'protection-off' });
  const account = await deps.accounts.get(request.account);
  const arming = account === null ? 'off' : protectionArming(account, request.rule);
  if (account === null || arming === 'off') return count(deps, { kind: 'not-armed' });
  const { announcements } = await deps.knownDelegates.read(request.account);
  const delegates = [...new Set(request.delegates)].filter((d) => !isKeptDelegate(account, announcements, d, request.now));
  if (delegates.length === 0) return count(deps, { kind: 'nothing-to-revoke' });
  // More keys than a decision holds: it could not be written, and the poll would fail until its dead-letter queue.
  if (delegates.length > MAX_DECISION_DELEGATES) {
    deps.log.warn('protection: more keys than one decision holds; nothing revoked', { ...about, delegates: delegates.length });
    return count(deps, { kind: 'capped', cap: `${MAX_DECISION_DELEGATES.toLocaleString('en-US')} keys in one automatic decision` });
  }

  const decision: ProtectiveDecision = {
    decisionId,
    account: request.account,
    rule: request.rule,
    reason: request.reason,
    evidence: { ...request.evidence },
    delegates,
    createdAt: request.now,
    dryRun: arming === 'dry-run',
  };
  // `exists`: a concurrent run of the same check wrote it first; the same units are queued (the queue and the signer make it a no-op).
  await deps.decisions.put(decision);
  if (decision.dryRun) {
    deps.log.info('protection: dry run', { ...about, decisionId: decision.decisionId, delegates: delegates.length });
    return count(deps, { kind: 'dry-run', decisionId: decision.decisionId, delegates });
  }
  await queueUnits(deps, decision);
  deps.log.warn('protection: revocations queued', { ...about, decisionId: decision.decisionId, delegates: delegates.length, reason: request.reason });
  return count(deps, { kind: 'queued', decisionId: decision.decisionId, delegates });
}

/** One unit per delegate of `decision`, in order, grouped by account (FIFO), deduplicated by decision and delegate. */
async function queueUnits(deps: ProtectDeps, decision: ProtectiveDecision): Promise<void> {
  await sendAll(
    deps.queue,
    decision.delegates.map((delegate) => ({
      id: `${decision.decisionId}-${delegate}`,
      body: { kind: 'decision-unit' as const, account: decision.account, delegate, decisionId: decision.decisionId },
      groupId: decision.account,
      deduplicationId: `${decision.decisionId}-${delegate}`.slice(0, 128),
    })),
  );
}

function count(deps: ProtectDeps, outcome: ProtectiveActionOutcome): ProtectiveActionOutcome {
  deps.counters?.count(`Protection_${outcome.kind}`);
  return outcome;
}
