import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { localDate } from '../../../../functions/domain/localTime';
import { formatTime } from '../../../../functions/mail/render/format';
import { nextReportAt } from '../../../../functions/domain/reportPlan';
import type { TrackedAccount } from '../../../../functions/domain/account';
import type { SqsLambdaHandler } from '../../../../local/queue/inProcessQueue';
import { EmailSendError } from '../../../../functions/mail/errors';
import type { MailSender } from '../../../../functions/mail/send/sesSender';
import { cliRunner } from '../../../support/cli/cliHarness';
import { sesSender, uniqueEmail } from '../../../support/delivery/mailHarness';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { sesStore } from '../../../support/sesStore';
import { reportWorlds, type ReportWorld } from '../../../support/report/reportWorld';
import { startChatReceivers } from '../../../../local/receivers/chatReceivers';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';

const SALT = 0x5a7;
const MINUTE = 60_000;
let nextAddress = 1;
const worlds = reportWorlds();
afterAll(worlds.close);

/** Tracks an account reported at 08:00 Berlin (06:00 UTC in June) to one fresh recipient. */
async function track(w: ReportWorld): Promise<TrackedAccount> {
  const account = accountRecord({
    address: testAddress(nextAddress++, SALT),
    emails: [uniqueEmail('missed')],
    reportAt: '08:00',
    timezone: 'Europe/Berlin',
    nextReportAt: nextReportAt(w.clock.now(), '08:00', 'Europe/Berlin'),
    createdAt: w.clock.now(),
  });
  await w.repos.accounts.create(account);
  return account;
}

/** The account's regular report delivery of the day due at `dueAt`, or null. */
async function regularDelivery(w: ReportWorld, account: TrackedAccount, dueAt: number) {
  return w.repos.deliveries.get(`report:${account.address}:${localDate(dueAt, account.timezone)}#${account.emails[0]!.toLowerCase()}`);
}

/** `sentinel` in-process over the world's tables, chain and clock (and the run's local SES). */
function cliOf(w: ReportWorld, operatorEmail: string, env: Record<string, string> = {}) {
  return cliRunner(
    {
      SENTINEL_TABLE_PREFIX: w.prefix,
      ROCKET_NODE_URL: w.chain.sim.nodeUrl,
      ROCKET_INDEXER_URL: w.chain.sim.indexerUrl,
      OPERATOR_EMAIL: operatorEmail,
      MAIL_RATE: '1000',
      ...env,
    },
    w.clock.now,
  );
}

/**
 * Local SES, down for the addresses in `down` (an SES outage for the reports; the operator's
 * notice still goes out). A report whose chain reads fail is sent from stored data, so a report
 * is given up only when it cannot be delivered.
 */
function sesDownFor(down: Set<string>): MailSender {
  const ses = sesSender(undefined, 3);
  return {
    send: async (email) => {
      if (email.destinations.some((to) => down.has(to.toLowerCase()))) throw new EmailSendError('ServiceUnavailable', true, 'SES is down');
      return ses.send(email);
    },
  };
}

const START = Date.parse('2025-06-02T05:59:00Z');
const DUE = Date.parse('2025-06-02T06:00:00Z');

describe('a report that fails is never dropped silently', () => {
  it('records a report that cannot be delivered past the retries as missed, emails the operators, lists it in `report`, and `report --retry-missed` sends it once when the chain is back', async () => {
    const [operator, marked] = [uniqueEmail('operator'), uniqueEmail('marked-operator')];
    const down = new Set<string>();
    const w = await worlds.world(START, { operatorEmail: operator, sender: sesDownFor(down) });
    await w.repos.deskOperators.add(marked);
    const account = await track(w);
    down.add(account.emails[0]!.toLowerCase());
    // A chat channel taking the account's reports (the world's own worker has none: only the CLI posts).
    const receivers = await startChatReceivers();
    onTestFinished(() => receivers.stop());
    process.env['MISSED_REPORT_SLACK'] = receivers.slackUrl('T6/B6/missed');
    await w.repos.channels.create(
      channelRecordOf({ name: 'desk', type: 'slack', secret: 'env:MISSED_REPORT_SLACK', categories: ['reports'], accounts: [account.address] }, START),
    );
    const cli = cliOf(w, operator);
    await w.chain.control.setFaults({ routes: { portfolio: { error500: 1 } } });

    w.clock.set(DUE + 5_000);
    expect((await w.reports.dispatch()).queued).toHaveLength(1);
    // The queue redelivers as deployed (every 12 minutes, 5 receives) on the simulated clock, then dead-letters.
    const drained = await w.reports.drain();
    expect(drained.deadLettered).toBe(1);
    expect(drained.failedDeliveries).toBe(5);
    expect(w.clock.now() - DUE).toBeGreaterThanOrEqual(48 * MINUTE);
    expect((await regularDelivery(w, account, DUE))?.status).toBe('failed');

    // Once the grace (the retry window, 60 minutes) has passed, the report is missed, once.
    w.clock.set(DUE + 61 * MINUTE);
    const reconciled = await w.reports.reconcile();
    expect(reconciled.missed.map((m) => m.job)).toEqual([{ address: account.address, reportDate: '2025-06-02', dueAt: DUE }]);
    expect(reconciled.missed[0]?.reason).toMatch(/email send failed: ServiceUnavailable/);
    w.clock.set(DUE + 62 * MINUTE);
    expect((await w.reports.reconcile()).missed).toHaveLength(0);
    // Listed in the account's deliveries, once: to its recipient, at the due time, with why in words.
    const recipient = account.emails[0]!.toLowerCase();
    const missedEntries = (await w.repos.history.deliveries(account.address, 20, null)).entries.filter((e) => e.outcome === 'missed');
    expect(missedEntries).toEqual([
      {
        via: 'email',
        to: recipient,
        what: 'daily-report',
        outcome: 'missed',
        reason: expect.stringMatching(/^no attempt delivered it within 60 min of its due time; the last attempt: .*ServiceUnavailable/) as unknown,
        at: DUE,
        eventId: `report:${account.address}:2025-06-02`,
      },
    ]);

    const notices = await sesStore({ to: operator });
    expect(notices).toHaveLength(1);
    expect(notices[0]?.subject).toContain('1 report missed');
    // The marked operator gets the same email, once.
    expect((await sesStore({ to: marked })).map((m) => m.subject)).toEqual([notices[0]?.subject]);
    expect(notices[0]?.body.text).toContain(account.address);
    expect(notices[0]?.body.text).toContain('sentinel report --retry-missed');
    expect(w.counters.totals.get('ReportsMissed')).toBe(1);

    const listed = await cli('report');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain('no report was due');
    expect(listed.stdout).toContain(`missed today: account ${account.address}: report of 2025-06-02, due 06:00 UTC`);

    // Still failing (SES still unreachable from the CLI): the retry fails, and the report stays listed.
    const failing = await cliOf(w, operator, { SES_ENDPOINT: 'http://127.0.0.1:9' })('report', '--retry-missed');
    expect(failing.code).not.toBe(0);
    expect((await regularDelivery(w, account, DUE))?.status).toBe('failed');
    expect((await cli('report')).stdout).toContain('missed today');

    await w.chain.control.resetFaults();
    const retried = await cli('report', '--retry-missed');
    expect(retried).toMatchObject({ code: 0, stderr: '' });
    expect(retried.stdout).toContain(account.address);
    const delivery = await regularDelivery(w, account, DUE);
    expect(delivery?.status).toBe('sent');
    // The send says it was the late send of the missed report; the missed entry stays.
    const listedAfter = (await w.repos.history.deliveries(account.address, 20, null)).entries.filter((e) => e.to === recipient);
    expect(listedAfter.filter((e) => e.outcome === 'reconciled')).toEqual([
      expect.objectContaining({ what: 'daily-report', reason: `a late send of the report missed at ${formatTime(DUE, 'Europe/Berlin')}` }),
    ]);
    expect(listedAfter.filter((e) => e.outcome === 'sent')).toEqual([]);
    expect(listedAfter.filter((e) => e.outcome === 'missed')).toHaveLength(1);
    // Sent once: a second retry has nothing left, and the recipient holds one report.
    expect((await cli('report', '--retry-missed')).stdout).toContain('no missed report to send');
    expect(await sesStore({ to: account.emails[0]! })).toHaveLength(1);
    expect((await cli('report')).stdout).not.toContain('missed today');
    // The CLI's runs posted the report to the chat once, before they ended.
    const posted = receivers.received.filter((r) => r.destination === 'T6/B6/missed' && r.status === 200);
    expect(posted.map((r) => (JSON.parse(r.body) as { text: string }).text)).toEqual([expect.stringContaining('Daily report') as unknown]);
    expect((await w.repos.deliveries.get(`daily-report:${account.address}:2025-06-01#channel:desk`))?.status).toBe('sent');
  }, 120_000);

  it('still delivers the report when SES fails for less than the retry window, and records nothing missed', async () => {
    const operator = uniqueEmail('operator');
    const down = new Set<string>();
    // SES fails for the report from the due time until 3 simulated minutes after it.
    const wrapWorker =
      (worker: SqsLambdaHandler): SqsLambdaHandler =>
      async (event, context) => {
        if (w.clock.now() >= DUE + 3 * MINUTE) down.clear();
        return worker(event, context);
      };
    const w: ReportWorld = await worlds.world(START, { operatorEmail: operator, wrapWorker, sender: sesDownFor(down) });
    const account = await track(w);
    down.add(account.emails[0]!.toLowerCase());

    w.clock.set(DUE + 5_000);
    await w.reports.dispatch();
    // Not missed while it is still being retried.
    expect((await w.reports.reconcile()).missed).toHaveLength(0);
    const drained = await w.reports.drain();
    expect(drained).toMatchObject({ processed: 1, deadLettered: 0 });
    expect(drained.failedDeliveries).toBeGreaterThanOrEqual(1);
    const delivery = await regularDelivery(w, account, DUE);
    expect(delivery?.status).toBe('sent');
    expect(delivery?.sentAt).toBeGreaterThan(DUE + 3 * MINUTE);

    w.clock.set(DUE + 2 * 60 * MINUTE);
    expect((await w.reports.reconcile()).missed).toHaveLength(0);
    expect(await sesStore({ to: operator })).toHaveLength(0);
    expect(await sesStore({ to: account.emails[0]! })).toHaveLength(1);
  }, 120_000);
});
