import { describe, expect, it } from 'vitest';
import { DeliveryRepository } from '../../../functions/store/deliveryRepository';
import { StoreError } from '../../../functions/store/errors';
import { testTables } from '../../support/testTables';

const T0 = 3_000_000_000_000;
const LEASE = 60_000;

describe('DeliveryRepository', () => {
  const tables = testTables();
  const repo = (now = T0) => new DeliveryRepository(tables.client, tables.prefix, { now: () => now, leaseMs: LEASE });
  const intent = { kind: 'drawdown-alert', account: '0xA', recipients: ['a@example.com'] };

  it('sends an event once: after completion it is already sent, with its SES id', async () => {
    expect(await repo().begin('evt-1', intent)).toEqual({ kind: 'new', leaseUntil: T0 + LEASE });
    expect(await repo().begin('evt-1', intent)).toEqual({ kind: 'in-progress', retryAfterMs: LEASE });
    await repo(T0 + 5).complete('evt-1', 'ses-123');
    expect(await repo().begin('evt-1', intent)).toEqual({ kind: 'already-sent', sesMessageId: 'ses-123' });
    expect(await repo().get('evt-1')).toMatchObject({ status: 'sent', sesMessageId: 'ses-123', sentAt: T0 + 5, attempts: 1, recipients: ['a@example.com'] });
  });

  it('lets a failed attempt be retried', async () => {
    await repo().begin('evt-2', intent);
    await repo().fail('evt-2', 'SES throttled');
    expect(await repo().get('evt-2')).toMatchObject({ status: 'failed', failureReason: 'SES throttled' });
    expect(await repo(T0 + 1).begin('evt-2', intent)).toEqual({ kind: 'new', leaseUntil: T0 + 1 + LEASE });
    expect(await repo().get('evt-2')).toMatchObject({ status: 'in-progress', attempts: 2 });
  });

  it('lets an abandoned in-progress attempt be taken over after the lease, not before', async () => {
    await repo().begin('evt-3', intent);
    expect(await repo(T0 + LEASE - 1).begin('evt-3', intent), "with when its holder's claim runs out").toEqual({ kind: 'in-progress', retryAfterMs: 1 });
    expect(await repo(T0 + LEASE + 1).begin('evt-3', intent)).toEqual({ kind: 'new', leaseUntil: T0 + 2 * LEASE + 1 });
    expect(await repo(T0 + LEASE + 2).begin('evt-3', intent)).toEqual({ kind: 'in-progress', retryAfterMs: LEASE - 1 });
  });

  it('says a claim holds until its lease runs out, by its own clock', async () => {
    const claim = await repo().begin('evt-5', intent);
    if (claim.kind !== 'new') throw new Error(`expected a new claim, got ${claim.kind}`);
    expect(repo(T0 + LEASE - 1).holds(claim)).toBe(true);
    expect(repo(T0 + LEASE).holds(claim), 'from here another attempt may take it over').toBe(false);
  });

  it('lets exactly one of concurrent senders begin', async () => {
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => repo().begin('evt-4', intent)));
    expect(outcomes.filter((o) => o.kind === 'new')).toHaveLength(1);
  });

  it('refuses to complete an event never begun', async () => {
    await expect(repo().complete('evt-unknown', 'ses-1')).rejects.toThrow(StoreError);
    expect(await repo().get('evt-unknown')).toBeNull();
  });
});
