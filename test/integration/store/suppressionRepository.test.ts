import { describe, expect, it } from 'vitest';
import { SuppressionRepository } from '../../../functions/store/suppressionRepository';
import { testTables } from '../../support/testTables';

describe('SuppressionRepository', () => {
  const tables = testTables();
  const repo = () => new SuppressionRepository(tables.client, tables.prefix);

  it('suppresses an address whatever its case, and allows it again', async () => {
    await repo().suppress('Bounced@Example.com', 'bounce');
    expect(await repo().isSuppressed('bounced@example.com')).toBe(true);
    expect(await repo().isSuppressed('other@example.com')).toBe(false);
    await repo().unsuppress('BOUNCED@example.com');
    expect(await repo().isSuppressed('bounced@example.com')).toBe(false);
  });

  it('filters a list down to the addresses that may be mailed, in order, over several batches', async () => {
    const emails = Array.from({ length: 250 }, (_, i) => `user${i}@example.com`);
    const blocked = emails.filter((_, i) => i % 7 === 0);
    for (const email of blocked) await repo().suppress(email, i7(email));
    const allowed = await repo().filter([...emails, 'User1@Example.com']);
    expect(allowed).toEqual([...emails.filter((e) => !blocked.includes(e)), 'User1@Example.com']);
    expect(await repo().filter([])).toEqual([]);
  });
});

function i7(email: string): 'complaint' | 'unsubscribe' {
  return email.length % 2 === 0 ? 'complaint' : 'unsubscribe';
}
