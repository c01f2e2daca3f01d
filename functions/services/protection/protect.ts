import { randomUUID } from 'node:crypto';
import type { ProtectiveActionOutcome, ProtectiveActionRequest, ProtectiveRevoker } from '../../domain/protectiveAction';
import { isKeptDelegate, protectionArming } from '../../domain/protectionArming';
import { accountsOf, breakerOpen, capUnits, PROTECTION_CAPS, type ProtectiveDecision } from '../../domain/protectiveDecision';
import type { ProtectionSwitch } from '../../domain/protectionSwitch';
import type { DecisionJob } from '../../messages/decisionJob';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { Counters, Log } from '../../shared/observability';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';
import type { ProtectionLedgerRepository } from '../../store/protectionLedgerRepository';

/** The ports of the protection service. */
export interface ProtectDeps {
  readonly protection: Pick<ProtectionSwitch, 'read'>;
  readonly accounts: Pick<AccountsRepository, 'get'>;
  /** Where announcements are kept: an announced delegate is left out. */
  readonly knownDelegates: Pick<KnownDelegatesRepository, 'read'>;
  readonly decisions: Pick<DecisionRepository, 'put'>;
  readonly ledger: Pick<ProtectionLedgerRepository, 'countCapped' | 'countFiring'>;
  /** The per-account FIFO queue of decision units (SQS FIFO in AWS, in-process locally). */
  readonly queue: MessageQueue<DecisionJob>;
  /** More accounts than this firing within an hour opens the breaker. */
  readonly breakerAccounts: number;
  readonly log: Log;
  readonly counters?: Counters;
  /** Decision ids; default a random UUID. */
  readonly newDecisionId?: () => string;
}

/**
 * The protection service both rule evaluators call (`ProtectiveRevoker`): decides, in this
 * order, whether an automatic revocation goes ahead: the stage-wide switch (`protection-off`),
 * the account's arming for the rule (`not-armed`), kept and announced keys left out
 * (`nothing-to-revoke`), a dry run (its decision recorded, `dry-run`, nothing queued), the
 * stage-wide breaker (`breaker-open`: act on none), the account's cap over a rolling day
 * (`capped`). Then it writes the immutable decision and queues one unit per delegate, in
 * order, grouped by account; the signer re-checks the decision before each signing. Only
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
    decisionId: (deps.newDecisionId ?? randomUUID)(),
    account: request.account,
    rule: request.rule,
    reason: request.reason,
    evidence: { ...request.evidence },
    delegates,
    createdAt: request.now,
    dryRun: arming === 'dry-run',
  };
  if (decision.dryRun) {
    await deps.decisions.put(decision);
    deps.log.info('protection: dry run', { ...about, decisionId: decision.decisionId, delegates: delegates.length });
    return count(deps, { kind: 'dry-run', decisionId: decision.decisionId, delegates });
  }

  const action = { decisionId: decision.decisionId, account: request.account, at: request.now };
  const firings = await deps.ledger.countFiring(action);
  if (breakerOpen(firings, request.now, deps.breakerAccounts)) {
    deps.log.error('protection: breaker open, acting on none', { ...about, firedAccounts: accountsOf(firings).length });
    return count(deps, { kind: 'breaker-open', firedAccounts: accountsOf(firings).length });
  }
  const limit = PROTECTION_CAPS[request.rule];
  const capped = await deps.ledger.countCapped(request.rule, action, capUnits(request.rule, delegates.length), limit);
  if (capped.kind === 'capped') {
    deps.log.warn('protection: cap reached, alerting only', { ...about, used: capped.used, limit });
    return count(deps, {
      kind: 'capped',
      cap: request.rule === 'kill-switch' ? `${limit} kill-switch firing per 24 hours` : `${limit} unknown-key revocations per 24 hours`,
    });
  }
  await deps.decisions.put(decision);
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
