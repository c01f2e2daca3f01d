import { describe, expect, it } from 'vitest';
import { AuditRepository, type AuditRecord } from '../../functions/store/auditRepository';
import { testTables } from '../support/testTables';

const T0 = 3_000_000_000_000;

describe('AuditRepository', () => {
  const tables = testTables();
  const repo = () => new AuditRepository(tables.client, tables.prefix);
  const record = (n: number, overrides: Partial<AuditRecord> = {}): AuditRecord => ({
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
});
