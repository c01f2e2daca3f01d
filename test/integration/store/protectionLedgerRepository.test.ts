import fc from 'fast-check';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ProtectionLedgerRepository } from '../../../functions/store/protectionLedgerRepository';
import { tableName } from '../../../functions/store/tableDefinitions';
import { testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';

const T0 = 3_000_000_000_000;
const HOUR = 3_600_000;
const LIMIT = 5;

/** The document client, each request of which is sent only when the fast-check scheduler picks it (so the scheduler orders every read and conditional write). */
function scheduled(client: DynamoDBDocumentClient, s: fc.Scheduler): DynamoDBDocumentClient {
  const send = async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
    await s.schedule(Promise.resolve(), 'send');
    return client.send(command as never);
  };
  return new Proxy(client, { get: (target, name, receiver) => (name === 'send' ? send : Reflect.get(target, name, receiver)) });
}

describe('ProtectionLedgerRepository (DynamoDB Local)', () => {
  const tables = testTables();
  const ledger = () => new ProtectionLedgerRepository(tables.client, tables.prefix);

  it('N simultaneous firings, N above the limit, open the breaker exactly once in every interleaving the scheduler makes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: LIMIT + 1, max: LIMIT + 5 }),
        fc.array(fc.integer({ min: 0, max: 30_000 }), { minLength: 10, maxLength: 10 }),
        async (s, n, skews) => {
          // Each run two hours after the last: the earlier firings are out of the rolling hour.
          const base = T0 + run++ * 2 * HOUR;
          const repo = new ProtectionLedgerRepository(scheduled(tables.client, s), tables.prefix);
          // Each signing counts at its own clock (instances a little apart), in whatever order the scheduler runs their requests.
          const counting = Promise.all(
            Array.from({ length: n }, (_, i) => {
              const at = base + (skews[i] ?? 0);
              return repo.countFiring('kill-switch', { decisionId: `run${run}-d${i}`, account: testAddress(i, 0xb7), at }, at, LIMIT);
            }),
          );
          const counts = await s.waitFor(counting);
          expect(counts.filter((c) => c.kind === 'opened')).toHaveLength(1);
          expect(counts.filter((c) => c.kind === 'counted')).toHaveLength(LIMIT);
          expect(counts.filter((c) => c.kind === 'open')).toHaveLength(n - LIMIT - 1);
          const stored = await ledger().breaker('kill-switch', base + 30_000, LIMIT);
          expect(stored).toMatchObject({ kind: 'open', accounts: n });
        },
      ),
      { numRuns: 25 },
    );
  }, 300_000);

  it('counts each rule on its own: six accounts rotating keys open the unknown-key breaker, not the kill switch’s', async () => {
    const at = T0 + 1_000 * HOUR;
    for (let i = 0; i < LIMIT + 1; i++)
      await ledger().countFiring('unknown-delegate', { decisionId: `rot-${i}`, account: testAddress(i, 0xc8), at }, at, LIMIT);
    expect((await ledger().breaker('unknown-delegate', at, LIMIT)).kind).toBe('open');
    expect(await ledger().countFiring('kill-switch', { decisionId: 'crash-1', account: testAddress(1, 0xc8), at }, at, LIMIT)).toMatchObject({
      kind: 'counted',
      accounts: 1,
    });
  });

  it('two signers reserving the kill switch slot of one account at once: one gets it', async () => {
    const account = testAddress(1, 0xd9);
    const reservations = await Promise.all(
      ['a', 'b', 'c'].map((d) => ledger().reserveCap('kill-switch', account, { key: `decision-${d}`, decisionId: `decision-${d}` }, T0)),
    );
    expect(reservations.filter((r) => r.kind === 'reserved')).toHaveLength(1);
    const cap = await ledger().cap('kill-switch', account);
    expect(cap?.entries).toHaveLength(1);
  });

  it('gives a slot back when its signing sent nothing, keeps it when one was sent, and the item keeps its expiry a day after its last reservation', async () => {
    const account = testAddress(2, 0xd9);
    const raw = async () =>
      (
        await tables.client.send(
          new GetCommand({ TableName: tableName(tables.prefix, 'tokens'), Key: { tokenId: `protection-cap#kill-switch#${account.toLowerCase()}` } }),
        )
      ).Item;
    expect(await ledger().reserveCap('kill-switch', account, { key: 'first', decisionId: 'first' }, T0)).toEqual({ kind: 'reserved' });
    const expiresAt = (await raw())?.['expiresAt'];
    expect(expiresAt).toBe(Math.ceil((T0 + 24 * HOUR) / 1000));
    await ledger().settleCap('kill-switch', account, 'first', false);
    expect((await ledger().cap('kill-switch', account))?.entries).toEqual([]);
    expect((await raw())?.['expiresAt']).toBe(expiresAt);
    expect(await ledger().reserveCap('kill-switch', account, { key: 'second', decisionId: 'second' }, T0 + 1)).toEqual({ kind: 'reserved' });
    await ledger().settleCap('kill-switch', account, 'second', true);
    expect(await ledger().reserveCap('kill-switch', account, { key: 'third', decisionId: 'third' }, T0 + 2)).toMatchObject({ kind: 'capped', used: 1 });
  });
});
