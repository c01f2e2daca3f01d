import { describe, expect, it } from 'vitest';
import { defaultRecipientSettings } from '../../../functions/domain/recipientSchedule';
import { PreferencesRepository } from '../../../functions/store/preferencesRepository';
import { RecipientsRepository } from '../../../functions/store/recipientsRepository';
import { StoreError } from '../../../functions/store/errors';
import { testTables } from '../../support/testTables';

const A = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const CLOCK = { timezone: 'Europe/Berlin', reportAt: '07:00' };

describe('RecipientsRepository', () => {
  const tables = testTables();
  const repo = () => new RecipientsRepository(tables.client, tables.prefix);
  const preferences = () => new PreferencesRepository(tables.client, tables.prefix);

  it('keeps a record by lower-cased email beside the opt-outs, each write leaving the other alone', async () => {
    expect(await repo().get('Desk@Example.com')).toBeNull();
    await preferences().optOut('desk@example.com', ['expiry']);
    expect(await repo().get('desk@example.com')).toBeNull(); // opt-outs alone are no record
    const saved = await repo().save({
      settings: { ...defaultRecipientSettings('Desk@Example.com'), mode: 'digest', weekly: 'mon' },
      accounts: [A],
      schedule: { nextReportAt: 1_000, clock: CLOCK },
    });
    expect(saved).toMatchObject({ email: 'desk@example.com', mode: 'digest', weekly: 'mon', accounts: [A], nextReportAt: 1_000, clock: CLOCK });
    expect(await preferences().optOuts('desk@example.com')).toEqual(['expiry']);
    await preferences().setOptOuts('desk@example.com', []);
    expect(await repo().get('DESK@example.com')).toMatchObject({ mode: 'digest', accounts: [A] });
    expect([...(await repo().getMany(['desk@example.com', 'none@example.com'])).keys()]).toEqual(['desk@example.com']);
  });

  it('refuses invalid settings, writing nothing', async () => {
    await expect(
      repo().save({ settings: { ...defaultRecipientSettings('bad@example.com'), reportAt: '25:00' }, accounts: [], schedule: null }),
    ).rejects.toBeInstanceOf(StoreError);
    await expect(
      repo().save({ settings: { ...defaultRecipientSettings('bad@example.com'), monthly: 31 }, accounts: [], schedule: null }),
    ).rejects.toBeInstanceOf(StoreError);
    expect(await repo().get('bad@example.com')).toBeNull();
  });

  it('keeps the account sets of recorded addresses only', async () => {
    await repo().save({ settings: defaultRecipientSettings('set@example.com'), accounts: [], schedule: null });
    await repo().syncAccount(A, ['SET@example.com', 'nobody@example.com'], []);
    await repo().syncAccount(B, ['set@example.com'], []);
    expect((await repo().get('set@example.com'))?.accounts).toEqual([B, A].sort());
    expect(await repo().get('nobody@example.com')).toBeNull();
    await repo().syncAccount(A, [], ['set@example.com']);
    expect((await repo().get('set@example.com'))?.accounts).toEqual([B]);
  });

  it('finds the recipients whose own schedule is due, and claims one only once', async () => {
    const now = 5_000_000;
    await repo().save({
      settings: { ...defaultRecipientSettings('due@example.com'), mode: 'digest' },
      accounts: [A],
      schedule: { nextReportAt: now - 1, clock: CLOCK },
    });
    await repo().save({
      settings: { ...defaultRecipientSettings('later@example.com'), mode: 'digest' },
      accounts: [A],
      schedule: { nextReportAt: now + 60_000, clock: CLOCK },
    });
    const due = (await repo().queryDue(now)).map((r) => r.email);
    expect(due).toContain('due@example.com');
    expect(due).not.toContain('later@example.com');
    expect(await repo().setNextReportAt('due@example.com', now + 86_400_000, now - 1)).toEqual({ kind: 'set' });
    expect(await repo().setNextReportAt('due@example.com', now + 86_400_000, now - 1)).toEqual({ kind: 'lost' });
    expect((await repo().queryDue(now)).map((r) => r.email)).not.toContain('due@example.com');
    // Back to following its accounts' schedules: out of the due index.
    await repo().save({ settings: defaultRecipientSettings('later@example.com'), accounts: [A], schedule: null });
    expect((await repo().get('later@example.com'))?.nextReportAt).toBeNull();
    expect((await repo().queryDue(now + 120_000)).map((r) => r.email)).not.toContain('later@example.com');
  });
});
