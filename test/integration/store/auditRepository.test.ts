import { describe, expect, it } from 'vitest';
import { AuditRepository, type AuditRecord, type TransactionIntent } from '../../../functions/store/auditRepository';
import { auditTrail } from '../../../functions/store/auditTrail';
import { testTables } from '../../support/testTables';

const T0 = 3_000_000_000_000;

describe('AuditRepository', () => {
  const tables = testTables();
  const repo = () => new AuditRepository(tables.client, tables.prefix);
  const record = (n: number, overrides: Partial<AuditRecord> = {}): AuditRecord => ({
    kind: 'attempt',
    id: `attempt-${n}`,
    address: '0xAccount',
    at: T0 + n * 1_000,
    actor: `link:tok-${n}`,
    action: 'revoke-delegate',
    outcome: n === 2 ? 'chain-rejected' : 'revoked',
    delegate: '0xDelegate',
    nonce: n,
    ...(n === 2 ? { message: 'stale nonce' } : { txSignature: `0xsig${n}` }),
    ...overrides,
  });

  it('appends records and lists the newest first, up to a limit', async () => {
    for (const n of [1, 2, 3]) expect(await repo().append(record(n))).toEqual({ kind: 'appended' });
    expect(await repo().listForAccount('0xAccount', 2)).toEqual([record(3), record(2)]);
    expect(await repo().listForAccount('0xAccount', 10)).toEqual([record(3), record(2), record(1)]);
    expect(await repo().listForAccount('0xOther', 10)).toEqual([]);
  });

  it('stores the same attempt once', async () => {
    const again = record(7, { address: '0xOnce' });
    await repo().append(again);
    expect(await repo().append(again)).toEqual({ kind: 'exists' });
    expect(await repo().listForAccount('0xOnce', 10)).toHaveLength(1);
  });

  it("keeps a transaction's intent and its outcome as two put-only items next to each other, and pairs them when read", async () => {
    const intent = (n: number): TransactionIntent => ({
      address: '0xPaired',
      delegate: '0xDelegate',
      tokenId: 'tok-1',
      actor: 'link:tok-1',
      action: 'revoke-delegate',
      nonce: n,
      txHash: `0xhash${n}`,
      txSignature: `0xsig${n}`,
      at: T0 + n * 1_000,
    });
    expect(await repo().appendIntent(intent(1))).toEqual({ kind: 'appended' });
    expect(await repo().appendIntent(intent(1))).toEqual({ kind: 'exists' });
    // Written a minute later, still keyed under its intent's time.
    expect(await repo().appendOutcome(intent(1), { outcome: 'rejected', at: T0 + 60_000, message: 'stale nonce', detail: 'retrying' })).toEqual({
      kind: 'appended',
    });
    expect(await repo().appendOutcome(intent(1), { outcome: 'revoked', at: T0 + 61_000 })).toEqual({ kind: 'exists' });
    await repo().appendIntent(intent(2));
    await repo().append(record(3, { address: '0xPaired', outcome: 'busy', nonce: undefined, txSignature: undefined }));

    const listed = await repo().listForAccount('0xPaired', 10);
    expect(listed.map((r) => `${r.kind}:${r.txHash ?? r.id}`)).toEqual(['attempt:attempt-3', 'intent:0xhash2', 'outcome:0xhash1', 'intent:0xhash1']);
    expect(listed[2]).toMatchObject({
      outcome: 'rejected',
      at: T0 + 60_000,
      intentAt: T0 + 1_000,
      nonce: 1,
      tokenId: 'tok-1',
      message: 'stale nonce',
      detail: 'retrying',
    });
    expect(listed[3]).toMatchObject({ outcome: 'submitting', at: T0 + 1_000, nonce: 1, txSignature: '0xsig1', delegate: '0xDelegate', tokenId: 'tok-1' });

    const trail = auditTrail(listed);
    expect(trail.map((e) => (e.kind === 'transaction' ? `tx:${e.intent.txHash}:${e.outcome?.outcome ?? 'none'}` : e.kind))).toEqual([
      'attempt',
      'tx:0xhash2:none',
      'tx:0xhash1:rejected',
    ]);
  });
});
