import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../../../functions/mail/render/format';
import { notifyMessageSchema } from '../../../../functions/messages/notifyMessage';
import { deliverChannelBrokenNotice } from '../../../../functions/services/notify/deliverChannelBrokenNotice';
import { deliverNotification, type NotificationOutcome } from '../../../../functions/services/notify/deliverNotification';
import { channelBrokenMessage } from '../../../support/channels/noticeFixtures';
import { sendAccountReport } from '../../../../functions/services/report/send/sendAccountReport';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { mailDeps, mailTo, testClock, uniqueEmail } from '../../../support/delivery/mailHarness';
import { recordingDigests } from '../../../support/report/recordingDigests';
import { startReportChain, type ReportChain } from '../../../support/report/reportChain';
import { testTables } from '../../../support/testTables';

const HOUR = 3_600_000;
const NOW = Date.parse('2025-03-04T07:05:00Z');
const SALT = 0x1e0f;
const tables = testTables();
const clock = testClock(NOW);
let chain: ReportChain;

beforeAll(async () => {
  chain = await startReportChain(NOW);
});
afterAll(() => chain?.close());

describe("recipients left out of a mailing are listed in the account's deliveries", () => {
  it('a drawdown alert lists the suppressed, the opted-out and the snoozed recipient, each once however often the event is delivered', async () => {
    const [kept, bounced, optedOut, snoozed] = [uniqueEmail('kept'), uniqueEmail('bounced'), uniqueEmail('opted'), uniqueEmail('snoozed')];
    const deps = mailDeps(tables, clock);
    const account = accountRecord({
      address: testAddress(1, SALT),
      emails: [kept, bounced, optedOut, snoozed],
      timezone: 'Europe/Berlin',
      drawdownThresholds: [5, 10],
    });
    await deps.repos.accounts.create(account);
    await deps.repos.suppressions.suppress(bounced, 'bounce');
    await deps.repos.preferences.setOptOuts(optedOut, ['drawdown']);
    const until = NOW + 6 * HOUR;
    await deps.repos.alerts.snoozeRecipient(account.address, snoozed, until, NOW);
    const message = notifyMessageSchema.parse({
      kind: 'drawdown',
      eventId: `drawdown:${account.address}:5:fired:left-out`,
      account: account.address,
      at: NOW - 60_000,
      notice: 'fired',
      level: 5,
      levels: [5, 10],
      drawdownPct: 5.5,
      maxDrawdownPct: 5.5,
      dollarDrawdown: 5_500,
      peakAt: NOW - HOUR,
      peakEquity: 100_000,
      equityNow: 94_500,
      pnlNow: -5_500,
      asOf: NOW,
    });

    await expectLeftOutOnce(deps, () => deliverNotification(deps, message), {
      account: account.address,
      kept,
      left: [
        [bounced, 'the address is suppressed after a bounce or complaint'],
        [optedOut, 'opted out of drawdown alerts'],
        [snoozed, `snoozed these alerts until ${formatTime(until, 'Europe/Berlin')}`],
      ],
      entry: { what: 'drawdown-alert', at: message.at, eventId: message.eventId },
    });
  });

  it("a broken channel's notice lists the suppressed recipient and the one opted out of security notices, once however often it is delivered", async () => {
    const [kept, bounced, optedOut] = [uniqueEmail('b-kept'), uniqueEmail('b-bounced'), uniqueEmail('b-opted')];
    const deps = mailDeps(tables, clock);
    const account = accountRecord({ address: testAddress(3, SALT), emails: [kept, bounced, optedOut], timezone: 'Europe/Berlin' });
    await deps.repos.accounts.create(account);
    await deps.repos.suppressions.suppress(bounced, 'bounce');
    await deps.repos.preferences.setOptOuts(optedOut, ['security']);
    const message = channelBrokenMessage(account.address, 'ops-hook', 'webhook', NOW - 60_000, 'HTTP 410: Gone');
    // Delivered again: a redelivery, or the channel worker queuing it again (its outbox).
    await expectLeftOutOnce(deps, () => deliverChannelBrokenNotice(deps, message), {
      account: account.address,
      kept,
      left: [
        [bounced, 'the address is suppressed after a bounce or complaint'],
        [optedOut, 'opted out of security notices'],
      ],
      entry: { what: 'channel-broken', at: message.at, eventId: message.eventId },
    });
  });

  it("a broken channel's notice no one may get still lists who was left out", async () => {
    const bounced = uniqueEmail('b-only');
    const deps = mailDeps(tables, clock);
    const account = accountRecord({ address: testAddress(4, SALT), emails: [bounced] });
    await deps.repos.accounts.create(account);
    await deps.repos.suppressions.suppress(bounced, 'complaint');
    const message = channelBrokenMessage(account.address, 'ops-chat', 'slack', NOW, 'HTTP 404: no_service');
    expect(await deliverChannelBrokenNotice(deps, message)).toMatchObject({ kind: 'skipped' });
    const { entries } = await deps.repos.history.deliveries(account.address, 10, null);
    expect(entries.map((e) => [e.to, e.outcome, e.what])).toEqual([[bounced, 'suppressed', 'channel-broken']]);
  });

  it('a daily report no one may get lists each recipient left out, once on a re-run, and sends nothing', async () => {
    const [bounced, optedOut] = [uniqueEmail('r-bounced'), uniqueEmail('r-opted')];
    const deps = { ...mailDeps(tables, clock), chain: chain.chain, digest: recordingDigests().sender };
    const account = accountRecord({
      address: testAddress(2, SALT),
      emails: [bounced, optedOut],
      timezone: 'Europe/Berlin',
      reportAt: '08:00',
      nextReportAt: Date.parse('2025-03-04T07:00:00Z'),
      createdAt: NOW - HOUR,
    });
    await deps.repos.accounts.create(account);
    await deps.repos.suppressions.suppress(bounced, 'complaint');
    await deps.repos.preferences.setOptOuts(optedOut, ['reports']);

    const mode = { kind: 'scheduled', reportDate: '2025-03-04', dueAt: Date.parse('2025-03-04T07:00:00Z') } as const;
    expect(await sendAccountReport(deps, account, mode, NOW)).toMatchObject({ kind: 'skipped' });
    clock.set(NOW + 10 * 60_000);
    expect(await sendAccountReport(deps, account, mode, NOW + 10 * 60_000)).toMatchObject({ kind: 'skipped' });
    clock.set(NOW);

    const { entries } = await deps.repos.history.deliveries(account.address, 10, null);
    expect(entries.map((e) => [e.to, e.outcome, e.what, e.reason, e.at, e.eventId]).sort()).toEqual(
      [
        [bounced, 'suppressed', 'daily-report', 'the address is suppressed after a bounce or complaint', mode.dueAt, `report:${account.address}:2025-03-04`],
        [optedOut, 'suppressed', 'daily-report', 'opted out of reports', mode.dueAt, `report:${account.address}:2025-03-04`],
      ].sort(),
    );
    expect(chain.requests.filter((r) => r.account === account.address)).toEqual([]);
  });
});

/**
 * Delivers a mailing twice (the second a minute later, as the queue's retry) and checks that `kept`
 * got the one copy and each of `left` (address, why) one `suppressed` entry in the account's deliveries.
 */
async function expectLeftOutOnce(
  deps: ReturnType<typeof mailDeps>,
  deliver: () => Promise<NotificationOutcome>,
  expected: { account: string; kept: string; left: [string, string][]; entry: { what: string; at: number; eventId: string } },
): Promise<void> {
  expect(await deliver()).toMatchObject({ kind: 'sent', messages: 1 });
  clock.set(NOW + 60_000);
  expect(await deliver(), 'delivered again: nothing more is written').toEqual({ kind: 'duplicate' });
  clock.set(NOW);

  expect(await mailTo(expected.kept)).toHaveLength(1);
  const { entries } = await deps.repos.history.deliveries(expected.account, 10, null);
  const left = entries.filter((e) => e.outcome === 'suppressed');
  expect(left.map((e) => [e.to, e.reason]).sort()).toEqual([...expected.left].sort());
  for (const entry of left) expect(entry).toMatchObject({ via: 'email', ...expected.entry });
  expect(entries.filter((e) => e.outcome === 'sent').map((e) => e.to)).toEqual([expected.kept]);
}
