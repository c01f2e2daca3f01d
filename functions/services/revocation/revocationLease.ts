import type { Log } from '../../shared/observability';
import type { LeaseRepository } from '../../store/leaseRepository';

/** How long a revocation may hold its account's lease, and how long another one waits for it. */
export interface RevocationLeaseTiming {
  /** Lease lifetime; a crashed holder's lease is taken over after it. Default 30 s. */
  readonly ttlMs: number;
  /** Longest wait for a busy lease before giving up. Default 8 s. */
  readonly waitMs: number;
  /** First pause between attempts; doubles up to 500 ms. Default 50 ms. */
  readonly retryDelayMs: number;
}

export const DEFAULT_REVOCATION_LEASE: RevocationLeaseTiming = { ttlMs: 30_000, waitMs: 8_000, retryDelayMs: 50 };

/** The lease id serializing revocations of one account (they must use consecutive nonces). */
export function revocationLeaseId(account: string): string {
  return `revoke:${account}`;
}

/**
 * Runs `work` while holding the account's revocation lease, waiting briefly while another
 * revocation holds it; `busy` if it stays taken. The lease is released afterwards, also when
 * `work` throws; a failed release is logged (the lease then lapses after its ttl) and does not
 * hide what `work` did.
 */
export async function withRevocationLease<T>(
  deps: {
    leases: Pick<LeaseRepository, 'acquire' | 'release'>;
    now: () => number;
    sleep: (ms: number) => Promise<void>;
    log: Pick<Log, 'warn'>;
  },
  account: string,
  owner: string,
  timing: RevocationLeaseTiming,
  work: () => Promise<T>,
): Promise<{ kind: 'done'; value: T } | { kind: 'busy' }> {
  const lockId = revocationLeaseId(account);
  const deadline = deps.now() + timing.waitMs;
  let delay = timing.retryDelayMs;
  for (;;) {
    const taken = await deps.leases.acquire(lockId, owner, timing.ttlMs, deps.now());
    if (taken.kind === 'acquired') break;
    if (deps.now() + delay > deadline) return { kind: 'busy' };
    await deps.sleep(delay);
    delay = Math.min(delay * 2, 500);
  }
  try {
    return { kind: 'done', value: await work() };
  } finally {
    await deps.leases.release(lockId, owner).catch((error: unknown) => {
      deps.log.warn('revocation lease not released; it lapses after its ttl', { lockId, error: String(error) });
    });
  }
}
