import { describe, expect, it } from 'vitest';
import { LeaseRepository } from '../../../functions/store/leaseRepository';
import { testTables } from '../../support/testTables';

const T0 = 3_000_000_000_000;

describe('LeaseRepository', () => {
  const tables = testTables();
  const repo = () => new LeaseRepository(tables.client, tables.prefix);

  it('holds a lease against others until it expires, then lets another take it over', async () => {
    expect(await repo().acquire('nonce:0xA', 'worker-1', 10_000, T0)).toEqual({ kind: 'acquired' });
    expect(await repo().acquire('nonce:0xA', 'worker-2', 10_000, T0 + 9_999)).toEqual({ kind: 'busy' });
    expect(await repo().acquire('nonce:0xA', 'worker-1', 10_000, T0 + 5_000)).toEqual({ kind: 'acquired' });
    // Renewed until T0 + 15 s.
    expect(await repo().acquire('nonce:0xA', 'worker-2', 10_000, T0 + 12_000)).toEqual({ kind: 'busy' });
    expect(await repo().acquire('nonce:0xA', 'worker-2', 10_000, T0 + 15_000)).toEqual({ kind: 'acquired' });
    expect(await repo().release('nonce:0xA', 'worker-1')).toEqual({ kind: 'not-owner' });
    expect(await repo().acquire('nonce:0xA', 'worker-1', 10_000, T0 + 16_000)).toEqual({ kind: 'busy' });
  });

  it('is free again once released by its owner', async () => {
    await repo().acquire('nonce:0xB', 'worker-1', 10_000, T0);
    expect(await repo().release('nonce:0xB', 'worker-1')).toEqual({ kind: 'released' });
    expect(await repo().acquire('nonce:0xB', 'worker-2', 10_000, T0 + 1)).toEqual({ kind: 'acquired' });
  });

  it('gives a contested lease to exactly one', async () => {
    const outcomes = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => repo().acquire('nonce:0xC', owner, 10_000, T0)));
    expect(outcomes.filter((o) => o.kind === 'acquired')).toHaveLength(1);
  });
});
