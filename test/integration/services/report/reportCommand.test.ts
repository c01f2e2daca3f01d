import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createRepositories } from '../../../../functions/store/repositories';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { cliRunner } from '../../../support/cli/cliHarness';
import { testTables } from '../../../support/testTables';
import { header, mailTo, uniqueEmail } from '../../../support/delivery/mailHarness';
import { startReportChain, type ReportChain } from '../../../support/report/reportChain';
import { receiversPerFile } from '../../../support/channels/receiversPerFile';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';

const HOUR = 3_600_000;
// Near the real time, so stored deliveries are not swept by DynamoDB Local's TTL.
const NOW = Math.floor(Date.now() / HOUR) * HOUR + 30 * 60_000;
const TODAY = new Date(NOW).toISOString().slice(0, 10);
const MIDNIGHT = Date.parse(`${TODAY}T00:00:00Z`);

const resultsSchema = z.array(z.object({ address: z.string(), outcome: z.looseObject({ kind: z.string() }) }));

describe('sentinel report', () => {
  const tables = testTables();
  const due = accountRecord({ address: testAddress(1, 0xc11), emails: [uniqueEmail('due')], timezone: 'UTC', reportAt: '00:00', nextReportAt: MIDNIGHT });
  const later = accountRecord({
    address: testAddress(2, 0xc11),
    emails: [uniqueEmail('later')],
    timezone: 'UTC',
    reportAt: '00:00',
    nextReportAt: MIDNIGHT + 24 * HOUR,
  });
  let cli: ReturnType<typeof cliRunner>;
  let chain: ReportChain;
  const receivers = receiversPerFile();
  const DESK = 'T5/B5/report-cli';

  beforeAll(async () => {
    chain = await startReportChain(NOW);
    // A chat channel taking the due account's reports: its `env:` secret is read from this process's environment, as the CLI's.
    process.env['REPORT_CLI_SLACK'] = receivers.slackUrl(DESK);
    cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix, ROCKET_NODE_URL: chain.sim.nodeUrl, ROCKET_INDEXER_URL: chain.sim.indexerUrl }, () => NOW);
    const repos = createRepositories(tables.client, tables.prefix);
    await repos.accounts.create(due);
    await repos.accounts.create(later);
    await repos.channels.create(
      channelRecordOf({ name: 'desk', type: 'slack', secret: 'env:REPORT_CLI_SLACK', categories: ['reports'], accounts: [due.address] }, NOW),
    );
  });

  afterAll(async () => {
    await chain.close();
  });

  it('sends the reports that are due and prints them as JSON', async () => {
    const run = await cli('report', '--json');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const results = resultsSchema.parse(JSON.parse(run.stdout));
    expect(results).toEqual([{ address: due.address, outcome: expect.objectContaining({ kind: 'sent', reportDate: TODAY, messages: 1 }) }]);
    const mails = await mailTo(due.emails[0]!);
    expect(mails.map((m) => header(m, 'X-Sentinel-Event-Id'))).toEqual([`report:${due.address}:${TODAY}`]);
  });

  it('posts the report to the chat channels taking the account reports, before it exits, once', async () => {
    const posted = receivers.received.filter((r) => r.destination === DESK);
    expect(posted.map((r) => r.status)).toEqual([200]);
    expect((JSON.parse(posted[0]!.body) as { text: string }).text).toContain('Daily report');
    // The chat's id names the day the report covers (yesterday), not the day it was sent on.
    const covered = new Date(Date.parse(TODAY) - 86_400_000).toISOString().slice(0, 10);
    expect((await createRepositories(tables.client, tables.prefix).deliveries.get(`daily-report:${due.address}:${covered}#channel:desk`))?.status).toBe('sent');
    expect((await cli('report')).code).toBe(0);
    expect(
      receivers.received.filter((r) => r.destination === DESK),
      'nothing due: nothing posted again',
    ).toHaveLength(1);
  });

  it('finds nothing due on a second run', async () => {
    expect(await cli('report')).toMatchObject({ code: 0, stdout: 'no report was due\n', stderr: '' });
    expect(await mailTo(due.emails[0]!)).toHaveLength(1);
  });

  it('with --account and --force sends an extra report now, and says when it was not due without --force', async () => {
    const notDue = await cli('report', '--account', later.address.toLowerCase());
    expect(notDue.code).toBe(0);
    expect(notDue.stdout).toMatch(new RegExp(`${later.address}\\s+not due\\s+0\\s+next at ${new Date(later.nextReportAt).toISOString()}`));
    const forced = await cli('report', '--account', later.address, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^LABEL\s+ACCOUNT\s+OUTCOME\s+RECIPIENTS\s+NOTE/);
    expect(forced.stdout).toMatch(new RegExp(`${later.address}\\s+sent \\(extra\\)\\s+1\\s+covers `));
    expect(await mailTo(later.emails[0]!)).toHaveLength(1);
    // The day it covers was just sent: not again (as the scheduler would not), unless --resend, as a copy.
    const again = await cli('report', '--account', later.address, '--force');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(new RegExp(`${later.address}\\s+already sent\\s+0\\s+covers \\S+; --force --resend sends a copy`));
    expect(await mailTo(later.emails[0]!)).toHaveLength(1);
    const copy = await cli('report', '--account', later.address, '--force', '--resend');
    expect(copy.stdout).toMatch(new RegExp(`${later.address}\\s+sent \\(copy\\)\\s+1\\s+covers `));
    const mails = await mailTo(later.emails[0]!);
    expect(mails.map((m) => m.subject)).toEqual([expect.not.stringContaining('[copy]'), expect.stringMatching(/^\[copy\] Daily report for /)]);
  });

  it('refuses a bad address with status 2 and an untracked account with status 1', async () => {
    expect(await cli('report', '--account', 'nope')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'sentinel: --account "nope" is not a 20-byte hex address\n',
    });
    const untracked = testAddress(3, 0xc11);
    expect(await cli('report', '--account', untracked)).toMatchObject({ code: 1, stdout: '', stderr: `sentinel: ${untracked} is not tracked\n` });
  });

  it("marks a chat channel that refuses the report for good broken, and emails the account's recipients once before it exits", async () => {
    const owner = accountRecord({ address: testAddress(4, 0xc11), emails: [uniqueEmail('gone')], timezone: 'UTC', reportAt: '00:00', nextReportAt: MIDNIGHT });
    const repos = createRepositories(tables.client, tables.prefix);
    await repos.accounts.create(owner);
    const path = 'T6/B6/report-cli-gone';
    process.env['REPORT_CLI_GONE'] = receivers.slackUrl(path);
    await repos.channels.create(
      channelRecordOf({ name: 'gone', type: 'slack', secret: 'env:REPORT_CLI_GONE', categories: ['reports'], accounts: [owner.address] }, NOW),
    );
    receivers.script(path, [{ status: 410, body: 'channel_is_archived' }]);

    expect(await cli('report', '--account', owner.address, '--force')).toMatchObject({ code: 0, stderr: '' });
    expect((await repos.channels.get('gone'))?.state).toMatchObject({ kind: 'broken', reason: expect.stringContaining('410') as unknown });
    const told = async () => (await mailTo(owner.emails[0]!)).filter((m) => m.subject === 'Channel "gone" stopped accepting alerts');
    expect(await told()).toHaveLength(1);
    expect((await told())[0]?.text).toContain('channel_is_archived');

    // Broken: the next report is not posted there, and nobody is told again.
    expect((await cli('report', '--account', owner.address, '--force', '--resend')).code).toBe(0);
    expect(receivers.received.filter((r) => r.destination === path)).toHaveLength(1);
    expect(await told()).toHaveLength(1);
  });
});
