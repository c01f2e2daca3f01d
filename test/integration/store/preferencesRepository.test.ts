import { describe, expect, it } from 'vitest';
import { PreferencesRepository } from '../../../functions/store/preferencesRepository';
import { StoreError } from '../../../functions/store/errors';
import { testTables } from '../../support/testTables';

describe('PreferencesRepository', () => {
  const tables = testTables();
  const repo = () => new PreferencesRepository(tables.client, tables.prefix);

  it('adds opt-outs one category at a time, case-insensitively, and filters recipients per category', async () => {
    expect(await repo().optOuts('A@Example.com')).toEqual([]);
    await repo().optOut('A@Example.com', ['drawdown']);
    await repo().optOut('a@example.com', ['reports', 'drawdown']);
    expect(await repo().optOuts('a@example.com')).toEqual(['reports', 'drawdown']);
    const all = ['A@example.com', 'b@example.com'];
    expect(await repo().filter(all, 'drawdown')).toEqual(['b@example.com']);
    expect(await repo().filter(all, 'security')).toEqual(all);
    expect(await repo().filter([], 'reports')).toEqual([]);
  });

  it('replaces the whole set from the preferences form, and an empty set gets everything again', async () => {
    await repo().optOut('c@example.com', ['expiry']);
    await repo().setOptOuts('c@example.com', ['security']);
    expect(await repo().optOuts('c@example.com')).toEqual(['security']);
    await repo().setOptOuts('c@example.com', []);
    expect(await repo().optOuts('c@example.com')).toEqual([]);
  });

  it('refuses an unknown category, writing nothing', async () => {
    await expect(repo().optOut('d@example.com', ['everything' as 'reports'])).rejects.toBeInstanceOf(StoreError);
    expect(await repo().optOuts('d@example.com')).toEqual([]);
  });
});
