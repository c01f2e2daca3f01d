import type { DecisionRevocationRequest } from '../../domain/revocationOutcome';
import { decisionRefusal } from '../../domain/decisionCheck';
import type { ProtectionSwitch } from '../../domain/protectionSwitch';
import type { AccountsRepository } from '../../store/accountsRepository';
import type { DecisionRepository } from '../../store/decisionRepository';
import type { ProtectionLedgerRepository } from '../../store/protectionLedgerRepository';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';
import { webSessionRefusal } from '../../domain/webSessionRevocation';

/** What the signer needs to re-check an automatic action; without it, every decision request is refused. */
export interface DecisionCheckDeps {
  readonly decisions: Pick<DecisionRepository, 'get' | 'markSigning' | 'releaseSigning'>;
  readonly ledger: Pick<ProtectionLedgerRepository, 'capEntries' | 'firings'>;
  readonly protection: Pick<ProtectionSwitch, 'read'>;
  /** Where announcements are kept (`sentinel delegates expect`): an announced delegate is never revoked automatically. */
  readonly knownDelegates: Pick<KnownDelegatesRepository, 'read'>;
  /** How old a decision may be when signed. */
  readonly maxAgeMs: number;
  /** The breaker opens when more accounts than this fire within an hour. */
  readonly breakerAccounts: number;
}

/**
 * Whether an automatic revocation may be signed; `reason` is the decision's, for the audit.
 * `webSession` is the refusal that applies if the delegate turns out to be a web session when the
 * signer reads it from the chain (`null`: the account's settings allow revoking one).
 */
export type DecisionAuthorization =
  { kind: 'authorized'; reason: string; webSession: string | null } | { kind: 'refused'; reason: string; decisionReason: string | null };

/**
 * Re-checks at signing time the decision a `{account, delegate, decisionId}` request names
 * (`decisionRefusal`), reading the decision, the switch, the account, its announcements, its cap and the breaker
 * afresh; then marks the delegate's signing, once, so a redelivered job never signs it twice.
 */
export async function authorizeDecision(
  deps: DecisionCheckDeps & { readonly accounts: Pick<AccountsRepository, 'get'>; readonly now: () => number },
  request: DecisionRevocationRequest,
): Promise<DecisionAuthorization> {
  const decision = await deps.decisions.get(request.decisionId);
  const now = deps.now();
  const [tracked, known, protection, capEntries, firings] = await Promise.all([
    deps.accounts.get(request.account),
    deps.knownDelegates.read(request.account),
    deps.protection.read(),
    decision ? deps.ledger.capEntries(request.account, decision.rule, now) : Promise.resolve([]),
    deps.ledger.firings(now),
  ]);
  const refusal = decisionRefusal({
    ...request,
    decision,
    tracked,
    announcements: known.announcements,
    protection,
    capEntries,
    firings,
    now,
    maxAgeMs: deps.maxAgeMs,
    breakerAccounts: deps.breakerAccounts,
  });
  const decisionReason = decision?.reason ?? null;
  if (refusal !== null) return { kind: 'refused', reason: refusal, decisionReason };
  const marked = await deps.decisions.markSigning(request.decisionId, request.delegate);
  if (marked.kind === 'already-marked') return { kind: 'refused', reason: 'this delegate of the decision was already signed for', decisionReason };
  // decisionRefusal returned null: the decision and the account exist.
  return {
    kind: 'authorized',
    reason: decision?.reason ?? '',
    webSession: decision && tracked ? webSessionRefusal(decision.rule, tracked) : 'the decision or the account is gone',
  };
}
