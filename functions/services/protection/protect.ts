import type { ProtectiveActionOutcome, ProtectiveActionRequest, ProtectiveRevoker } from '../../domain/protectiveAction';
import { isKeptDelegate, protectionArming } from '../../domain/protectionArming';
import type { ProtectiveDecision } from '../../domain/protectiveDecision';
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
  readonly decisions: Pick<DecisionRepository, 'put'>;
  /** The per-account FIFO queue of decision units (SQS FIFO in AWS, in-process locally). */
  readonly queue: MessageQueue<DecisionJob>;
  readonly log: Log;
  readonly counters?: Counters;
}

/**
 * The protection service both rule evaluators call (`ProtectiveRevoker`): decides, in this
 * order, whether an automatic revocation goes ahead: the stage-wide switch (`protection-off`),
 * the account's arming for the rule (`not-armed`), kept and announced keys left out
 * (`nothing-to-revoke`), a dry run (its decision recorded, `dry-run`, nothing queued). Then it
 * writes the immutable decision, under an id derived from the request's occasion (a redelivered
 * collect message finds the decision it made and queues the same units, which the FIFO queue and
 * the signer's per-delegate units make a no-op), and queues one unit per delegate, in order,
 * grouped by account. The caps and the breaker are not counted here: the signer counts both when
 * it signs, re-checks the decision, and announces its result once every delegate ended. Only
 * `queued` revokes anything; the caller sends the notice of every outcome.
 */
export function protectionService(deps: ProtectDeps): ProtectiveRevoker {
  return (request) => protect(deps, request);
}

async function protect(deps: ProtectDeps, request: ProtectiveActionRequest): Promise<ProtectiveActionOutcome> {
  const about = { account: request.account, rule: request.rule };
  if ((await deps.protection.read()) !== 'on') return count(deps, { kind: 'protection-off' });
  const account = await deps.accounts.get(request.account);
  const arming = account === null ? 'off' : protectionArming(account, request.rule);
  if (account === null || arming === 'off') return count(deps, { kind: 'not-armed' });
  const { announcements } = await deps.knownDelegates.read(request.account);
  const delegates = [...new Set(request.delegates)].filter((d) => !isKeptDelegate(account, announcements, d, request.now));
  if (delegates.length === 0) return count(deps, { kind: 'nothing-to-revoke' });

  const decision: ProtectiveDecision = {
    decisionId: protectiveDecisionId({
      account: request.account,
      rule: request.rule,
      delegate: request.rule === 'unknown-delegate' ? (request.delegates[0] ?? null) : null,
      ...request.occasion,
    }),
    account: request.account,
    rule: request.rule,
    reason: request.reason,
    evidence: { ...request.evidence },
    delegates,
    createdAt: request.now,
    dryRun: arming === 'dry-run',
  };
  const written = await deps.decisions.put(decision);
  if (written.kind === 'exists')
    deps.log.info('protection: the decision exists (a redelivered check); its units are queued again', { ...about, decisionId: decision.decisionId });
  if (decision.dryRun) {
    deps.log.info('protection: dry run', { ...about, decisionId: decision.decisionId, delegates: delegates.length });
    return count(deps, { kind: 'dry-run', decisionId: decision.decisionId, delegates });
  }
  await sendAll(
    deps.queue,
    delegates.map((delegate) => ({
      id: `${decision.decisionId}-${delegate}`,
      body: { kind: 'decision-unit' as const, account: request.account, delegate, decisionId: decision.decisionId },
      groupId: request.account,
      deduplicationId: `${decision.decisionId}-${delegate}`.slice(0, 128),
    })),
  );
  deps.log.warn('protection: revocations queued', { ...about, decisionId: decision.decisionId, delegates: delegates.length, reason: request.reason });
  return count(deps, { kind: 'queued', decisionId: decision.decisionId, delegates });
}

function count(deps: ProtectDeps, outcome: ProtectiveActionOutcome): ProtectiveActionOutcome {
  deps.counters?.count(`Protection_${outcome.kind}`);
  return outcome;
}
