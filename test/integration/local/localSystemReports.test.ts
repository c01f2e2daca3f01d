import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createRepositories } from '../../../functions/store/repositories';
import { createLocalSystem, type LocalSystem } from '../../../local/localSystem';
import { drainInRounds } from '../../../local/queue/drainInRounds';
import { channelRecordOf } from '../../support/channels/channelRecordFixture';
import { receiverSenderDeps } from '../../support/channels/receiverSenderDeps';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { mailTo, uniqueEmail } from '../../support/delivery/mailHarness';
import { localSystemSettings } from '../../support/localSettings';
import { startReportChain, type ReportChain } from '../../support/report/reportChain';
import { accountRecord, testAddress } from '../../support/store/accountFixture';
import { testTables } from '../../support/testTables';

const HOUR = 3_600_000;
// Near the real time, so stored deliveries are not swept by DynamoDB Local's TTL.
const NOW = Math.floor(Date.now() / HOUR) * HOUR + 30 * 60_000;
const MIDNIGHT = Date.parse(`${new Date(NOW).toISOString().slice(0, 10)}T00:00:00Z`);
const DESK = 'T7/B7/local-reports';

/**
 * The in-process system (`serve`, `npm start`): a report its report worker sends is published on
 * the system's own fan-out queue and reaches the chat through the fan-out and the channel worker,
 * once. Real parts: DynamoDB Local, local SES, the chain simulator, the local Slack receiver.
 */
describe("the local system's reports to chat", () => {
  const tables = testTables();
  const receivers = receiversPerFile();
  const counters = memoryCounters();
  const account = accountRecord({
    address: testAddress(1, 0xd17),
    emails: [uniqueEmail('local-report')],
    timezone: 'UTC',
    reportAt: '00:00',
    nextReportAt: MIDNIGHT,
  });
  let chain: ReportChain;
  let system: LocalSystem;

  beforeAll(async () => {
    chain = await startReportChain(NOW);
    system = await createLocalSystem({
      settings: localSystemSettings({ prefix: tables.prefix, sim: chain.sim }),
      repos: createRepositories(tables.client, tables.prefix),
      chain: chain.chain,
      channelSender: receiverSenderDeps(receivers, { LOCAL_REPORT_SLACK: receivers.slackUrl(DESK) }),
      log: silentLog,
      counters,
      now: () => NOW,
    });
    await system.repos.accounts.create(account);
    await system.repos.channels.create(
      channelRecordOf({ name: 'desk', type: 'slack', secret: 'env:LOCAL_REPORT_SLACK', categories: ['reports'], accounts: [account.address] }, NOW),
    );
  });
  afterAll(async () => {
    await chain?.close();
  });

  it('routes the report through the fan-out queue to the channel taking it, once', async () => {
    expect((await system.reports.dispatch()).queued).toHaveLength(1);
    await system.reports.drain();
    expect(await mailTo(account.emails[0]!)).toHaveLength(1);
    await drainInRounds(system.queues);
    const posted = receivers.received.filter((r) => r.destination === DESK && r.status < 300);
    expect(posted).toHaveLength(1);
    expect((JSON.parse(posted[0]!.body) as { text: string }).text).toContain('Daily report');
    expect(counters.totals.get('ReportChannelJobs'), 'queued by the fan-out').toBe(1);
  });
});
