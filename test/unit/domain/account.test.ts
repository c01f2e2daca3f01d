import { describe, expect, it } from 'vitest';
import { accountSettingsPatchSchema, accountSettingsSchema, DEFAULT_SETTINGS, describeSettingsError } from '../../../functions/domain/account';

const ADDR = '0x52908400098527886e0f7030069857d2e4169ee7';
const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

/** The least a new account needs. */
const MINIMAL = { address: ADDR, email: 'ops@example.com' };
const settingsWith = (extra: Record<string, unknown>) => accountSettingsSchema.parse({ ...MINIMAL, ...extra });

function errorOf(input: unknown): string {
  const r = accountSettingsSchema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return describeSettingsError(r.error);
}

describe('accountSettingsSchema', () => {
  it('fills defaults and checksums the address', () => {
    expect(accountSettingsSchema.parse({ address: ADDR, email: 'ops@example.com' })).toEqual({
      address: CHECKSUMMED,
      emails: ['ops@example.com'],
      label: null,
      interval: DEFAULT_SETTINGS.interval,
      drawdownThresholds: [5, 10, 20],
      reportAt: '08:00',
      timezone: 'UTC',
      expiryWarnDays: [14, 7, 3, 1],
      signer: null,
      delegateWatch: '5m',
      killSwitch: null,
      killSwitchConfirm: 'wait',
      keepDelegates: [],
      killSwitchWebSessions: 'keep',
      killSwitchDryRun: false,
      revokeUnknown: 'off',
    });
  });

  it('takes --revoke-unknown api-keys, all or off in any case, and refuses anything else', () => {
    expect(settingsWith({ 'revoke-unknown': ' API-Keys ' }).revokeUnknown).toBe('api-keys');
    expect(settingsWith({ revokeUnknown: 'all' }).revokeUnknown).toBe('all');
    expect(errorOf({ ...MINIMAL, revokeUnknown: 'some' })).toBe('revoke-unknown: must be one of off, api-keys, all');
  });

  it('takes --kill-switch-confirm now, or next (stored as wait), and refuses anything else', () => {
    expect(settingsWith({ 'kill-switch-confirm': ' Next ' }).killSwitchConfirm).toBe('wait');
    expect(settingsWith({ killSwitchConfirm: 'wait' }).killSwitchConfirm).toBe('wait');
    expect(settingsWith({ killSwitchConfirm: 'NOW' }).killSwitchConfirm).toBe('now');
    expect(errorOf({ ...MINIMAL, killSwitchConfirm: 'later' })).toBe('kill-switch-confirm: must be now, or next (also called wait)');
  });

  it('takes a delegate watch interval, or none (with each poll), and refuses anything else', () => {
    expect(settingsWith({ 'delegate-watch': '1m' }).delegateWatch).toBe('1m');
    expect(settingsWith({ 'delegate-watch': 'none' }).delegateWatch).toBeNull();
    expect(errorOf({ ...MINIMAL, 'delegate-watch': '2m' })).toMatch(/^delegate-watch: must be one of 1m, .* or none$/);
    expect(accountSettingsPatchSchema.parse({ 'delegate-watch': 'none' })).toEqual({ delegateWatch: null });
  });

  it('takes CLI strings and CSV column names, sorting and deduplicating lists', () => {
    const parsed = accountSettingsSchema.parse({
      address: `  ${ADDR} `,
      email: 'b@Example.COM; a@x.io, B@example.com',
      label: '  Main bot ',
      interval: '15m',
      drawdown: '20;5%,10,5',
      'report-at': '7:30',
      timezone: 'europe/berlin',
      'expiry-warn-days': '1,14,7,7',
      signer: 'kms:alias/sentinel-owner',
    });
    expect(parsed).toMatchObject({
      emails: ['b@example.com', 'a@x.io'],
      label: 'Main bot',
      interval: '15m',
      drawdownThresholds: [5, 10, 20],
      reportAt: '07:30',
      timezone: 'Europe/Berlin',
      expiryWarnDays: [14, 7, 1],
      signer: 'kms:alias/sentinel-owner',
    });
  });

  it('takes arrays (JSON lines), and "none" for an empty list', () => {
    const parsed = accountSettingsSchema.parse({ address: ADDR, emails: ['a@b.io'], drawdownThresholds: [2.5, 50], expiryWarnDays: 'none' });
    expect(parsed.drawdownThresholds).toEqual([2.5, 50]);
    expect(parsed.expiryWarnDays).toEqual([]);
  });

  it('treats empty CSV cells as not given', () => {
    const parsed = accountSettingsSchema.parse({ address: ADDR, email: 'a@b.io', label: '', interval: '', drawdown: '', signer: '' });
    expect(parsed).toMatchObject({ label: null, interval: '1h', drawdownThresholds: [5, 10, 20], signer: null });
  });

  it.each([
    [{ email: 'a@b.io' }, /^address: is required$/],
    [{ address: '0x1234', email: 'a@b.io' }, /^address: not a 20-byte hex address$/],
    [{ address: ADDR }, /^email: /],
    [{ address: ADDR, email: 'a@b.io,not-an-email' }, /^email: "not-an-email" is not a valid email address$/],
    [{ address: ADDR, email: 'none' }, /^email: give at least one email address$/],
    [{ address: ADDR, email: 'a@b.io', interval: '2h' }, /^interval: must be one of 1m, 5m, 15m, 30m, 1h, 4h, 1d$/],
    [{ address: ADDR, email: 'a@b.io', drawdown: '5,120' }, /^drawdown: 120 must be greater than 0 and less than 100/],
    [{ address: ADDR, email: 'a@b.io', drawdown: '0' }, /^drawdown: 0 must be greater than 0/],
    [{ address: ADDR, email: 'a@b.io', drawdown: '5,ten' }, /^drawdown: "ten" is not a number$/],
    [{ address: ADDR, email: 'a@b.io', 'report-at': '25:00' }, /^report-at: "25:00" is not a time of day/],
    [{ address: ADDR, email: 'a@b.io', timezone: 'Mars/Olympus' }, /^timezone: "Mars\/Olympus" is not an IANA time zone/],
    [{ address: ADDR, email: 'a@b.io', 'expiry-warn-days': '14,2.5' }, /^expiry-warn-days: "2.5" is not a whole number of days/],
    [{ address: ADDR, email: 'a@b.io', 'expiry-warn-days': '0' }, /^expiry-warn-days: "0" is not a whole number/],
    [{ address: ADDR, email: 'a@b.io', label: 'x'.repeat(65) }, /^label: at most 64 characters$/],
    [{ address: ADDR, email: 'a@b.io', label: 'a\nb' }, /^label: must not contain control characters$/],
    [{ address: ADDR, email: 'a@b.io', signer: 'kms:' }, /^signer: "kms:" is not a signer reference/],
    [{ address: ADDR, email: 'a@b.io', signer: 'file:/tmp/key' }, /^signer: .* is not a signer reference/],
  ])('rejects %j with a message naming the field', (input, message) => {
    expect(errorOf(input)).toMatch(message);
  });

  it('reports every bad field at once, one per line', () => {
    const lines = errorOf({ address: ADDR, email: 'x', interval: '2h', timezone: 'Nowhere' }).split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(['email', 'interval', 'timezone']);
  });
});

describe('accountSettingsPatchSchema', () => {
  it('keeps only what was given and applies no defaults', () => {
    expect(accountSettingsPatchSchema.parse({ drawdown: '3' })).toEqual({ drawdownThresholds: [3] });
    expect(accountSettingsPatchSchema.parse({})).toEqual({});
  });

  it('removes the label or signer when given as empty', () => {
    expect(accountSettingsPatchSchema.parse({ label: '', signer: '' })).toEqual({ label: null, signer: null });
  });

  it('validates with the same messages', () => {
    const r = accountSettingsPatchSchema.safeParse({ interval: '7m' });
    expect(r.success).toBe(false);
    if (!r.success) expect(describeSettingsError(r.error)).toMatch(/^interval: must be one of/);
  });
});
