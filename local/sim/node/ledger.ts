/** A delegate as listed by `GET /delegate-traders`. */
export interface DelegateRecord {
  address: string;
  expiryMs: number | null;
  name: string | null;
  isWebClient: boolean;
}

/** Whether `manager` may act for an account at a given time. */
export type DelegateStatus = 'active' | 'expired' | 'none';

/** One address of a ledger as plain data. */
export interface LedgerEntry {
  address: string;
  nonce: number;
  deferredNonce: number;
  delegates: DelegateRecord[];
}

interface NodeAccount {
  nonce: number;
  deferredNonce: number;
  delegates: Map<string, DelegateRecord>;
}

/**
 * Node-side state: nonce lanes and delegates per (checksummed) address. An address never seen
 * reads as nonce 0 with no delegates. Expired delegates stay listed until removed, as on the
 * chain, where an authorization ends only with `RemoveDelegateManager`.
 */
export class NodeLedger {
  private readonly accounts = new Map<string, NodeAccount>();

  /** A ledger holding `entries` (from `entries()` of a saved one). */
  constructor(entries: readonly LedgerEntry[] = []) {
    for (const e of entries) {
      this.accounts.set(e.address, { nonce: e.nonce, deferredNonce: e.deferredNonce, delegates: new Map(e.delegates.map((d) => [d.address, { ...d }])) });
    }
  }

  /** Every address's nonces and delegates, as plain data. */
  entries(): LedgerEntry[] {
    return [...this.accounts].map(([address, a]) => ({
      address,
      nonce: a.nonce,
      deferredNonce: a.deferredNonce,
      delegates: [...a.delegates.values()].map((d) => ({ ...d })),
    }));
  }

  nonces(address: string): { nonce: number; deferredNonce: number } {
    const account = this.accounts.get(address);
    return { nonce: account?.nonce ?? 0, deferredNonce: account?.deferredNonce ?? 0 };
  }

  setNonce(address: string, nonce: number, deferredNonce?: number): void {
    const account = this.account(address);
    account.nonce = nonce;
    if (deferredNonce !== undefined) account.deferredNonce = deferredNonce;
  }

  delegates(owner: string): DelegateRecord[] {
    return [...(this.accounts.get(owner)?.delegates.values() ?? [])].map((d) => ({ ...d }));
  }

  /** Adds or replaces a delegate of `owner`. */
  putDelegate(owner: string, delegate: DelegateRecord): void {
    this.account(owner).delegates.set(delegate.address, { ...delegate });
  }

  /** Removes a delegate; false if it was not one. */
  removeDelegate(owner: string, manager: string): boolean {
    return this.accounts.get(owner)?.delegates.delete(manager) ?? false;
  }

  delegateStatus(owner: string, manager: string, nowMs: number): DelegateStatus {
    const delegate = this.accounts.get(owner)?.delegates.get(manager);
    if (delegate === undefined) return 'none';
    return delegate.expiryMs !== null && delegate.expiryMs <= nowMs ? 'expired' : 'active';
  }

  private account(address: string): NodeAccount {
    let account = this.accounts.get(address);
    if (account === undefined) {
      account = { nonce: 0, deferredNonce: 0, delegates: new Map() };
      this.accounts.set(address, account);
    }
    return account;
  }
}
