import { GetSendQuotaCommand } from '@aws-sdk/client-ses';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../../../functions/config/settings';
import { mailRateFrom, mailRateShares } from '../../../../functions/mail/send/mailRate';
import { mailGovernor } from '../../../../functions/services/delivery/mailGovernor';

/** A stand-in for the SES client's `send`, recording the commands (GetSendQuota has no local endpoint). */
function quotaClient(answer: () => Promise<unknown>) {
  const commands: unknown[] = [];
  return { commands, client: { send: async (command: unknown) => (commands.push(command), answer()) } as never };
}

describe('the mail rate', () => {
  it('is MAIL_RATE when set, without asking SES', async () => {
    const ses = quotaClient(() => Promise.reject(new Error('not called')));
    expect(await mailRateFrom(loadSettings({ MAIL_RATE: '25' }), ses.client)).toBe(25);
    expect(ses.commands).toEqual([]);
  });

  it("is the account's MaxSendRate from GetSendQuota otherwise", async () => {
    const ses = quotaClient(() => Promise.resolve({ Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: 3 }));
    expect(await mailRateFrom(loadSettings({}), ses.client)).toBe(14);
    expect(ses.commands).toHaveLength(1);
    expect(ses.commands[0]).toBeInstanceOf(GetSendQuotaCommand);
  });

  it('fails naming MAIL_RATE when SES cannot tell', async () => {
    const denied = quotaClient(() => Promise.reject(Object.assign(new Error('no'), { name: 'AccessDenied' })));
    await expect(mailRateFrom(loadSettings({}), denied.client)).rejects.toThrow(ConfigError);
    await expect(mailRateFrom(loadSettings({}), denied.client)).rejects.toThrow(/MAIL_RATE.*AccessDenied/);
    const empty = quotaClient(() => Promise.resolve({}));
    await expect(mailRateFrom(loadSettings({}), empty.client)).rejects.toThrow(/MAIL_RATE/);
  });

  it('rejects a MAIL_RATE that is not a positive number, naming it', () => {
    for (const bad of ['0', '-3', 'fast']) expect(() => loadSettings({ MAIL_RATE: bad })).toThrow(/^MAIL_RATE: /);
  });

  it('keeps a share for alerts (5 %, at least 1/s, at most half) and gives reports the rest', () => {
    expect(mailRateShares(14)).toEqual({ alert: 1, report: 13 });
    expect(mailRateShares(100)).toEqual({ alert: 5, report: 95 });
    expect(mailRateShares(1)).toEqual({ alert: 0.5, report: 0.5 });
    for (const rate of [1, 2, 14, 50, 100, 1_000]) {
      const shares = mailRateShares(rate);
      expect(shares.alert + shares.report).toBeCloseTo(rate);
      expect(shares.report / rate).toBeGreaterThanOrEqual(rate >= 14 ? 0.9 : 0.5);
    }
  });

  it('divides each share by the instances that send it at once', () => {
    expect(mailGovernor({ rate: 14, workers: 4 }).rates).toEqual({ alert: 0.25, report: 3.25 });
  });
});
