import { describe, expect, it } from 'vitest';
import { accountSettingsSchema } from '../../../functions/domain/account';
import { nextReportAt } from '../../../functions/domain/reportPlan';
import { applySettingsPatch, newTrackedAccount, trackedAccountSchema } from '../../../functions/domain/trackedAccount';

const settings = accountSettingsSchema.parse({ address: '0x52908400098527886e0f7030069857d2e4169ee7', email: 'a@b.io', timezone: 'Europe/Berlin' });
const NOW = Date.parse('2024-07-01T12:00:00Z');

describe('newTrackedAccount', () => {
  it('is due now, reports at the next local report time, and passes the stored-record schema', () => {
    const account = newTrackedAccount(settings, NOW);
    expect(account).toMatchObject({
      nextDueAt: NOW,
      nextReportAt: Date.parse('2024-07-02T06:00:00Z'),
      status: 'ok',
      consecutiveErrors: 0,
      consecutiveEmptyPolls: 0,
      createdAt: NOW,
    });
    expect(trackedAccountSchema.parse(account)).toEqual(account);
  });
});

describe('trackedAccountSchema', () => {
  it('rejects a record with a field out of shape, naming it', () => {
    const bad = { ...newTrackedAccount(settings, NOW), status: 'weird' };
    const r = trackedAccountSchema.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['status']);
  });

  it('reads a record written before the cursor moved to the snapshots, dropping the legacy fields', () => {
    const account = newTrackedAccount(settings, NOW);
    const legacy = { ...account, cursorMs: NOW - 1000, lastPolledAt: NOW - 500, lastSuccessAt: null };
    const r = trackedAccountSchema.safeParse(legacy);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(account);
    expect(r.data).not.toHaveProperty('cursorMs');
  });
});

describe('applySettingsPatch', () => {
  const account = {
    ...newTrackedAccount(settings, NOW),
    status: 'stale' as const,
    statusReason: 'no new points',
    consecutiveEmptyPolls: 3,
    nextDueAt: NOW + 3_600_000,
  };

  it('reschedules the report when the time or zone changes, and keeps the collection health', () => {
    const later = NOW + 60_000;
    const patched = applySettingsPatch(account, { timezone: 'America/New_York' }, later);
    expect(patched.nextReportAt).toBe(nextReportAt(later, '08:00', 'America/New_York'));
    expect(patched).toMatchObject({ status: 'stale', statusReason: 'no new points', consecutiveEmptyPolls: 3 });
    expect(patched.nextDueAt).toBe(account.nextDueAt);
  });

  it('makes the account due now when the interval changes', () => {
    expect(applySettingsPatch(account, { interval: '5m' }, NOW).nextDueAt).toBe(NOW);
  });

  it('changes only the given fields', () => {
    const patched = applySettingsPatch(account, { label: 'desk', signer: null }, NOW);
    expect(patched).toEqual({ ...account, label: 'desk', signer: null });
  });
});
