import type { ChainClient } from '../../chain/ports';
import { ChainError } from '../../chain/errors';
import { decisionSettlement, type DecisionSettlement } from '../../domain/decisionSettlement';
import { resultForNotice, type DecisionResult } from '../../domain/decisionResult';
import type { ProtectiveDecision } from '../../domain/protectiveDecision';
import type { NotifyEvent } from '../../messages/notifyMessage';
import type { MessageQueue } from '../../queue/messageQueue';
import { sendAll } from '../../queue/sendAll';
import type { Counters, Log } from '../../shared/observability';
import type { DecisionRepository } from '../../store/decisionRepository';

/** The ports of {@link announceDecisionSettled}. */
export interface AnnounceDecisionDeps {
  readonly decisions: Pick<DecisionRepository, 'units'>;
  /** The notify publisher: the result goes to every recipient (a security notice) and every channel taking security notices. */
  readonly notify: MessageQueue<NotifyEvent>;
  /** Which keys are left, read once the decision settled. */
  readonly chain: Pick<ChainClient, 'getDelegateTraders'>;
  readonly log: Log;
  readonly counters?: Counters;
}

/** Past this many keys, each key's words are cut to `MANY_UNITS_TEXT_CHARS`: a result of `MAX_NOTICE_DELEGATES` keys stays one queue message. */
export const MANY_UNITS = 50;
export const MANY_UNITS_TEXT_CHARS = 300;

/** The event id of a decision's result: one per decision, so a redelivery names the same event and sends nothing twice. */
export const decisionResultEventId = (decisionId: string): string => `decision-result#${decisionId}`;

/**
 * Queues the result notice of `decision` once every delegate of it has a final result: what was
 * revoked, refused or failed and why, and which keys the chain still lists. The event id is the
 * decision's, so every delivery that finds it settled (a redelivered unit, the next unit after a
 * lost answer) names the same event and the notify ledger sends it once per recipient. `fresh`:
 * this call recorded the last result, so the settlement is counted (`DecisionsSettled`, and
 * `DecisionsRefused` / `DecisionsFailed`, which alarm). Throws when the notice could not be
 * queued, so the signer's caller redelivers and the next delivery announces it.
 */
export async function announceDecisionSettled(deps: AnnounceDecisionDeps, decision: ProtectiveDecision, fresh: boolean): Promise<DecisionSettlement | null> {
  const settlement = decisionSettlement(decision, await deps.decisions.units(decision));
  if (settlement === null) return null;
  let left: DecisionResult['left'] = null;
  try {
    left = (await deps.chain.getDelegateTraders(decision.account)).map((d) => ({ address: d.address, name: d.name, isWebClient: d.isWebClient }));
  } catch (error) {
    if (!(error instanceof ChainError)) throw error;
  }
  const retry = decision.rule === 'unknown-delegate' && decision.evidence['judgedAgain'] !== true ? (settlement.units[0]?.retryAt ?? null) : null;
  // A decision on more keys than one notice carries is cut to its bound; the keys left out are counted.
  const result = resultForNotice({
    decisionId: decision.decisionId,
    rule: decision.rule,
    reason: decision.reason,
    // A delegate refused before the signer read it has no name of its own: the chain's list has it.
    units: settlement.units.map((u) => ({
      address: u.address,
      name: u.name ?? left?.find((k) => k.address.toLowerCase() === u.address.toLowerCase())?.name ?? null,
      status: u.status,
      text: u.text.slice(0, settlement.units.length > MANY_UNITS ? MANY_UNITS_TEXT_CHARS : 1_000),
      refusal: u.refusal,
    })),
    left,
    judgedAgainAt: settlement.count.revoked + settlement.count.gone === settlement.units.length ? null : retry,
  });
  const eventId = decisionResultEventId(decision.decisionId);
  await sendAll(deps.notify, [{ id: 'result', body: { kind: 'decision-result', eventId, account: decision.account, at: settlement.settledAt, result } }]);
  if (fresh) {
    deps.counters?.count('DecisionsSettled');
    if (settlement.count.refused > 0) deps.counters?.count('DecisionsRefused');
    if (settlement.count.failed > 0) deps.counters?.count('DecisionsFailed');
    const level = settlement.count.refused + settlement.count.failed > 0 ? 'warn' : 'info';
    deps.log[level]('protective decision settled', { account: decision.account, decisionId: decision.decisionId, rule: decision.rule, ...settlement.count });
  }
  return settlement;
}
