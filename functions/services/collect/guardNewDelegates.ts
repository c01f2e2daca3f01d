import type { Address } from '../../domain/address';
import type { ObservedDelegate } from '../../domain/delegateAlerts';
import type { DelegateProtection, UnknownKeyAction } from '../../domain/delegateProtection';
import { judgeNewDelegates } from '../../domain/judgeNewDelegates';
import type { ProtectiveRevoker } from '../../domain/protectiveAction';
import type { TrackedAccount } from '../../domain/account';
import type { KnownDelegatesRepository } from '../../store/knownDelegatesRepository';

/** The reason unknown-key revocations carry into the decision record and the audit. */
export const UNKNOWN_DELEGATE_REASON = 'unknown delegate';

/** What unknown-key protection needs: its state, and the protection service (absent: protection is not set up). */
export interface GuardDeps {
  readonly knownDelegates: KnownDelegatesRepository;
  readonly revoke?: ProtectiveRevoker | undefined;
}

/** What the guard decided for a check: the protection each new delegate's notice carries, and the state write. */
export interface GuardResult {
  /** By delegate address as listed; a delegate not here gets the plain new-delegate notice. */
  readonly protections: ReadonlyMap<string, DelegateProtection>;
  readonly commit: () => Promise<void>;
}

const NOTHING: GuardResult = { protections: new Map(), commit: async () => undefined };

/**
 * Unknown-key protection for one successful delegate read (`--revoke-unknown`, see
 * `domain/judgeNewDelegates`): reads the account's known keys and announcements (only when the
 * mode is on), asks the protection service to revoke each unknown delegate that the mode revokes
 * (one request per delegate, reason `unknown delegate`, with the delegate, when it was first
 * seen and the read time as evidence) and says, per new delegate, what its notice is to tell. The
 * known keys learned and the unknown keys seen are written by `commit()`, after the notices are
 * queued; a crash before it judges the same delegates again, and the service's decision is keyed
 * by account and delegate.
 */
export async function guardNewDelegates(
  deps: GuardDeps,
  account: Pick<TrackedAccount, 'address' | 'revokeUnknown'>,
  read: { current: readonly ObservedDelegate[]; fresh: readonly ObservedDelegate[]; listedBefore: readonly string[]; now: number },
): Promise<GuardResult> {
  const mode = account.revokeUnknown;
  if (mode === 'off') return NOTHING;
  const state = await deps.knownDelegates.read(account.address);
  const judged = judgeNewDelegates({ mode, state, ...read });
  const protections = new Map<string, DelegateProtection>();
  for (const delegate of read.fresh) {
    const verdict = judged.verdicts.get(delegate.address);
    if (verdict === undefined || verdict.kind === 'known') continue;
    if (verdict.kind === 'announced') {
      protections.set(delegate.address, { verdict: 'announced', expiresAt: verdict.expiresAt });
      continue;
    }
    const action = await actOn(deps, account.address, delegate, verdict.revoke, mode, read.now);
    protections.set(delegate.address, { verdict: 'unknown', mode, webSession: verdict.webSession, action, repeatWithinDay: judged.repeatWithinDay });
  }
  const learned = judged.learn.length > 0 || judged.unknown.length > 0 || judged.tookBaseline;
  return {
    protections,
    commit: async () => {
      if (!learned) return;
      await deps.knownDelegates.record(account.address, {
        known: judged.learn,
        source: judged.tookBaseline ? 'baseline' : 'announced',
        unknown: judged.unknown,
        at: read.now,
        ...(judged.tookBaseline ? { baselineAt: read.now } : {}),
      });
    },
  };
}

async function actOn(deps: GuardDeps, account: Address, delegate: ObservedDelegate, revoke: boolean, mode: string, now: number): Promise<UnknownKeyAction> {
  if (!revoke) return { kind: 'kept-web-session' };
  if (!deps.revoke) return { kind: 'not-set-up' };
  const outcome = await deps.revoke({
    account,
    rule: 'unknown-delegate',
    reason: UNKNOWN_DELEGATE_REASON,
    delegates: [delegate.address as Address],
    evidence: {
      delegate: delegate.address,
      firstSeenAt: now,
      readAt: now,
      isWebClient: delegate.isWebClient,
      mode,
      ...(delegate.name === null ? {} : { name: delegate.name }),
    },
    now,
  });
  return { kind: 'requested', outcome };
}
