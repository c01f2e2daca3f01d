import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WEEKDAYS } from '../../../../functions/domain/recipientSchedule';
import { nextReportAt } from '../../../../functions/domain/reportPlan';
import { addDays } from '../../../../functions/domain/localTime';
import type { ReportFanOut } from '../../../../functions/messages/channelJob';
import type { MessageQueue } from '../../../../functions/queue/messageQueue';
import { shortAddress } from '../../../../functions/mail/render/format';
import type { TrackedAccount } from '../../../../functions/domain/account';
import { createRepositories } from '../../../../functions/store/repositories';
import { createReportWorkerHandler, reportWorkerDepsFromEnv } from '../../../../functions/handlers/report-worker';
import { silentLog } from '../../../../functions/shared/observability';
import { createLocalReportPipeline } from '../../../../local/reportPipeline';
import { writePrecompiledTemplates } from '../../../../infra/bundling/precompileTemplates';
import { defaultTemplateRoot } from '../../../../functions/mail/render/templateRoot';
import { cliRunner, type CliRun } from '../../../support/cli/cliHarness';
import { header, mailTo, uniqueEmail } from '../../../support/delivery/mailHarness';
import { accountRecord, testAddress } from '../../../support/store/accountFixture';
import { testTables } from '../../../support/testTables';
import { hourlyPoints } from '../../../support/report/reportFixture';
import { startReportChain, type ReportChain } from '../../../support/report/reportChain';

/**
 * Issue 10 end to end: `sentinel recipients update`, then `sentinel report` in-process (the CLI's
 * own composition) or the scheduled path (`report-dispatch`, the report queue, the `daily-report`
 * handler built from its environment as in AWS), each with the real `sendDigest` wired by
 * `digestSenderFor`, against DynamoDB Local, the local SES and its store, and the chain simulator
 * over HTTP.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SALT = 0xe2e;
// Today (UTC) of the real clock, so stored deliveries are not swept by DynamoDB Local's TTL.
const D0 = Math.floor(Date.now() / DAY) * DAY;
const TODAY = new Date(D0).toISOString().slice(0, 10);
const TOMORROW = new Date(D0 + DAY).toISOString().slice(0, 10);
const TODAY_WEEKDAY = WEEKDAYS[(new Date(D0).getUTCDay() + 6) % 7]!;
const HISTORY_START = D0 - 3 * DAY;

const rising = { equity: (t: number) => 100_000 + (t - HISTORY_START) / HOUR, pnl: (t: number) => (t - HISTORY_START) / HOUR };
/** Up 2,000 over a day, then down steadily: past its 2% and 4% alert levels by today. */
const falling = {
  pnl: (t: number) => (t - HISTORY_START < DAY ? ((t - HISTORY_START) / DAY) * 2_000 : 2_000 - ((t - HISTORY_START - DAY) / DAY) * 3_000),
  equity: (t: number) => 100_000 + falling.pnl(t),
};

const eventIds = (mails: readonly ParsedMail[]) => mails.map((m) => header(m, 'X-Sentinel-Event-Id'));

/** The digest's worst-first table (`<table class="dg">`) as HTML. */
function digestTable(mail: ParsedMail): string {
  const html = typeof mail.html === 'string' ? mail.html : '';
  const start = html.indexOf('class="dg"');
  expect(start, 'the digest has its table').toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</table>', start));
}

/** Asserts the digest covers exactly `accounts`: each one's label and address in the table (worst first) and its own section. */
function expectCovers(mail: ParsedMail, accounts: readonly TrackedAccount[], copy = false): void {
  expect(mail.subject).toMatch(new RegExp(`^${copy ? '\\[copy\\] ' : ''}Daily digest — ${accounts.length} accounts, `));
  const table = digestTable(mail);
  const rows = table.split('<tr valign="top">').slice(1);
  expect(rows).toHaveLength(accounts.length);
  for (const account of accounts) {
    expect(table).toContain(account.label ?? '');
    expect(table).toContain(shortAddress(account.address));
    expect(mail.html).toContain(`${account.address}</span>`);
  }
  expect(table).not.toContain('Unavailable');
}

describe('issue 10 end to end: recipients update, sentinel report, the real digest', () => {
  const tables = testTables();
  const desk = uniqueEmail('e2e-desk');
  const ops = uniqueEmail('e2e-ops');
  const weekly = uniqueEmail('e2e-weekly');
  const weeklyDesk = uniqueEmail('e2e-weekly-desk');
  const account = (n: number, label: string, emails: string[], extra: Partial<TrackedAccount> = {}) =>
    accountRecord({
      address: testAddress(n, SALT),
      label,
      emails,
      timezone: 'UTC',
      reportAt: '08:00',
      nextReportAt: D0 + 8 * HOUR,
      createdAt: HISTORY_START,
      ...extra,
    });
  const alpha = account(1, 'alpha-desk', [ops, desk, weeklyDesk]);
  const bravo = account(2, 'bravo-falling', [desk, weekly, weeklyDesk], { drawdownThresholds: [2, 4, 50] });
  const charlie = account(3, 'charlie-desk', [desk.toUpperCase()]);
  const all = [alpha, bravo, charlie];
  let now = D0 + 5 * HOUR;
  let chain: ReportChain;
  let cli: (...argv: string[]) => Promise<CliRun>;

  /** `sentinel report [args]` at `at`; it must succeed. */
  async function report(at: number, ...args: string[]): Promise<CliRun> {
    now = at;
    const run = await cli('report', ...args);
    expect(run, `report ${args.join(' ')} at ${new Date(at).toISOString()}`).toMatchObject({ code: 0, stderr: '' });
    return run;
  }

  beforeAll(async () => {
    chain = await startReportChain(D0 + DAY + 12 * HOUR);
    cli = cliRunner({ SENTINEL_TABLE_PREFIX: tables.prefix, ROCKET_NODE_URL: chain.sim.nodeUrl, ROCKET_INDEXER_URL: chain.sim.indexerUrl }, () => now);
    const repos = createRepositories(tables.client, tables.prefix);
    for (const a of all) {
      await repos.accounts.create(a);
      const curve = a === bravo ? falling : rising;
      await repos.curves.putPoints(a.address, a.interval, hourlyPoints(HISTORY_START, D0 + DAY + 9 * HOUR, curve.equity, curve.pnl), D0 + 400 * DAY);
    }
  }, 60_000);

  afterAll(async () => {
    await chain.close();
  });

  it('recipients update sets the digest and the weekly summary through the CLI', async () => {
    now = D0 + 5 * HOUR;
    const digest = await cli('recipients', 'update', desk, '--digest', 'on', '--report-at', '07:00', '--timezone', 'UTC');
    expect(digest).toMatchObject({ code: 0, stderr: '' });
    expect(digest.stdout).toContain(`next at ${new Date(D0 + 7 * HOUR).toISOString()}`);
    const summary = await cli('recipients', 'update', weekly, '--weekly', TODAY_WEEKDAY);
    expect(summary).toMatchObject({ code: 0, stderr: '' });
    const weeklyDigest = await cli('recipients', 'update', weeklyDesk, '--digest', 'on', '--weekly', TODAY_WEEKDAY);
    expect(weeklyDigest).toMatchObject({ code: 0, stderr: '' });
    const shown = await cli('recipients', 'show', desk, '--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({ mode: 'digest', accounts: expect.arrayContaining([expect.objectContaining({ address: alpha.address })]) });
    expect(JSON.parse(shown.stdout).accounts).toHaveLength(3);
  });

  it('sends the digest recipient one digest at its time covering its 3 accounts, worst first, and nothing more that day', async () => {
    await report(D0 + 7 * HOUR + MINUTE);
    const mails = await mailTo(desk);
    expect(eventIds(mails)).toEqual([`digest:day:${TODAY}`]);
    expectCovers(mails[0]!, all);
    // bravo is past two of its alert levels: it leads the table.
    expect(digestTable(mails[0]!).split('<tr valign="top">')[1]).toContain('bravo-falling');
    expect(await mailTo(ops)).toHaveLength(0);

    await report(D0 + 7 * HOUR + 2 * MINUTE);
    await report(D0 + 8 * HOUR + MINUTE); // the accounts' own reports
    await report(D0 + 8 * HOUR + 2 * MINUTE);
    await report(D0 + 23 * HOUR);
    expect(eventIds(await mailTo(desk))).toEqual([`digest:day:${TODAY}`]);
  }, 120_000);

  it("sends the per-account recipient its account's daily report as before, once", async () => {
    const mails = await mailTo(ops);
    expect(eventIds(mails)).toEqual([`report:${alpha.address}:${TODAY}`]);
    expect(mails[0]!.subject ?? '').toContain('alpha-desk');
    expect(mails[0]!.html).toContain(alpha.address);
  });

  it('sends the weekly summary on its weekday, with that day’s report', async () => {
    expect(eventIds(await mailTo(weekly)).sort()).toEqual([`report-week:${bravo.address}:${TODAY}`, `report:${bravo.address}:${TODAY}`].sort());
    // A digest recipient: the weekly digest of its accounts, with that day's digest.
    const mails = await mailTo(weeklyDesk);
    expect(eventIds(mails).sort()).toEqual([`digest:day:${TODAY}`, `digest:week:${TODAY}`]);
    const week = mails.find((m) => header(m, 'X-Sentinel-Event-Id') === `digest:week:${TODAY}`)!;
    expect(week.subject).toMatch(/^Weekly digest — 2 accounts, /);
    for (const a of [alpha, bravo]) expect(digestTable(week)).toContain(a.label ?? '');
  });

  it("report --force --account sends that account's report alone: to its followers, and to each digest recipient instead of its whole digest; a day already sent goes again only with --resend, as a copy", async () => {
    const at = D0 + 23 * HOUR + 30 * MINUTE;
    const run = await report(at, '--force', '--account', alpha.address);
    // One line per email: the account's report to its followers (sent by the schedule at 08:00: not again), then alpha's report to each digest recipient.
    const yesterday = new Date(D0 - DAY).toISOString().slice(0, 10);
    expect(run.stdout).toMatch(
      new RegExp(`^alpha-desk +${alpha.address.toLowerCase()} +already sent +0 +covers ${yesterday}; --force --resend sends a copy +account's schedule$`, 'mi'),
    );
    for (const email of [desk, weeklyDesk])
      expect(run.stdout).toMatch(
        new RegExp(`^alpha-desk +${alpha.address.toLowerCase()} +sent \\(extra\\) +1 +covers \\S+ +${email.replace(/[+.]/g, '\\$&')}$`, 'mi'),
      );
    expect(run.stdout).not.toMatch(/^ +digest /m);
    expect(run.stdout.trim().split('\n'), run.stdout).toHaveLength(5); // heading, rule, three rows
    const desks = await mailTo(desk);
    expect(eventIds(desks)).toEqual([`digest:day:${TODAY}`, `report:${alpha.address}:${TODAY}`]);
    expect(desks[1]!.subject ?? '').toContain('alpha-desk');
    expect(desks[1]!.subject ?? '').not.toMatch(/digest/i);
    expect(desks[1]!.html).not.toContain('bravo-falling');
    expect(eventIds(await mailTo(ops))).toEqual([`report:${alpha.address}:${TODAY}`]);
    // Not a recipient of alpha: nothing forced for it.
    expect(await mailTo(weekly)).toHaveLength(2);

    // Again: everyone had it, nothing is sent; with --resend, a copy to each, labelled as one.
    const again = await report(at + MINUTE, '--force', '--account', alpha.address);
    expect(again.stdout.match(/already sent/g)).toHaveLength(3);
    expect(eventIds(await mailTo(ops))).toHaveLength(1);
    const resent = await report(at + 2 * MINUTE, '--force', '--account', alpha.address, '--resend');
    expect(resent.stdout.match(/sent \(copy\)/g)).toHaveLength(3);
    const copies = (await mailTo(ops)).slice(1);
    expect(eventIds(copies)).toEqual([`report:${alpha.address}:${TODAY}:copy:${at + 2 * MINUTE}`]);
    expect(copies[0]!.subject).toMatch(/^\[copy\] Daily report for alpha-desk /);
    expect(eventIds(await mailTo(desk))).toEqual([
      `digest:day:${TODAY}`,
      `report:${alpha.address}:${TODAY}`,
      `report:${alpha.address}:${TODAY}:copy:${at + 2 * MINUTE}`,
    ]);
  }, 60_000);

  it('the next day: one more digest, one more report each, and no weekly summary', async () => {
    await report(D0 + DAY + 7 * HOUR + MINUTE);
    await report(D0 + DAY + 8 * HOUR + MINUTE);
    await report(D0 + DAY + 8 * HOUR + 2 * MINUTE);
    const desks = (await mailTo(desk)).filter((m) => !header(m, 'X-Sentinel-Event-Id')?.includes(':copy:'));
    expect(eventIds(desks)).toEqual([`digest:day:${TODAY}`, `report:${alpha.address}:${TODAY}`, `digest:day:${TOMORROW}`]);
    expectCovers(desks[2]!, all);
    expect(eventIds(await mailTo(ops))).toEqual([`report:${alpha.address}:${TODAY}`, expect.stringMatching(/:copy:/), `report:${alpha.address}:${TOMORROW}`]);
    expect(eventIds(await mailTo(weekly)).filter((id) => id?.includes(TOMORROW))).toEqual([`report:${bravo.address}:${TOMORROW}`]);
    expect(eventIds(await mailTo(weekly)).filter((id) => id?.startsWith('report-week'))).toHaveLength(1);
    expect(
      eventIds(await mailTo(weeklyDesk))
        .filter((id) => id?.startsWith('digest:'))
        .sort(),
    ).toEqual([`digest:day:${TODAY}`, `digest:day:${TOMORROW}`, `digest:week:${TODAY}`]);
  }, 120_000);

  it('the digest follows the accounts as `accounts update` and `accounts add` change their recipients', async () => {
    now = D0 + DAY + 10 * HOUR;
    const delta = testAddress(4, SALT);
    const repos = createRepositories(tables.client, tables.prefix);
    await repos.curves.putPoints(delta, '1h', hourlyPoints(HISTORY_START, D0 + DAY + 9 * HOUR, rising.equity, rising.pnl), D0 + 400 * DAY);
    expect(await cli('accounts', 'update', charlie.address, '--add-email', uniqueEmail('e2e-heir'), '--remove-email', desk.toUpperCase())).toMatchObject({
      code: 0,
      stderr: '',
    });
    const added = await cli('accounts', 'add', delta, '--email', desk, '--label', 'delta-desk', '--signer', 'env:OWNER_KEY');
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const at = D0 + DAY + 10 * HOUR + MINUTE;
    const before = (await mailTo(desk)).length;
    // Today's digest went at 07:00: a copy of it, on request, covers the accounts as they are now.
    await report(at, '--force', '--resend');
    const desks = (await mailTo(desk)).slice(before);
    expect(eventIds(desks)).toEqual([`digest:day:${TOMORROW}:copy:${at}`]);
    const deltaRecord = await repos.accounts.get(delta);
    expect(deltaRecord?.label).toBe('delta-desk');
    expectCovers(desks[0]!, [alpha, bravo, deltaRecord!], true);
    expect(digestTable(desks[0]!)).not.toContain('charlie-desk');
  }, 60_000);

  it('report --force --recipient sends that one recipient its usual delivery, to it alone', async () => {
    const repos = createRepositories(tables.client, tables.prefix);
    const before = { desk: (await mailTo(desk)).length, ops: (await mailTo(ops)).length, weeklyDesk: (await mailTo(weeklyDesk)).length };
    const at = D0 + DAY + 11 * HOUR;
    // Its digest of today went at 07:00: not again.
    const already = await report(at - MINUTE, '--force', '--recipient', desk);
    expect(already.stdout).toMatch(/^ +digest +already sent +0 +covers /m);
    expect((await mailTo(desk)).length).toBe(before.desk);
    const run = await report(at, '--force', '--recipient', desk.toUpperCase(), '--resend');
    expect(run.stdout.trim().split('\n'), run.stdout).toHaveLength(3); // heading, rule, the digest
    const desks = await mailTo(desk);
    expect(eventIds(desks.slice(before.desk))).toEqual([`digest:day:${TOMORROW}:copy:${at}`]);
    expectCovers(desks.at(-1)!, [alpha, bravo, (await repos.accounts.get(testAddress(4, SALT)))!], true);
    expect((await mailTo(ops)).length).toBe(before.ops);
    expect((await mailTo(weeklyDesk)).length).toBe(before.weeklyDesk);

    // A recipient on its accounts' schedule: each of its accounts' reports, to it alone.
    const later = at + MINUTE;
    await report(later, '--force', '--recipient', ops, '--resend');
    expect(eventIds((await mailTo(ops)).slice(before.ops))).toEqual([`report:${alpha.address}:${TOMORROW}:copy:${later}`]);
    expect((await mailTo(desk)).length).toBe(before.desk + 1);
    expect((await mailTo(weeklyDesk)).length).toBe(before.weeklyDesk);

    // With --account: that account's report alone, even to a digest recipient (which never had it: no copy needed).
    const third = later + MINUTE;
    await report(third, '--force', '--recipient', desk, '--account', bravo.address);
    expect(eventIds((await mailTo(desk)).slice(before.desk + 1))).toEqual([`report:${bravo.address}:${TOMORROW}`]);

    expect(await cli('report', '--recipient', desk)).toMatchObject({ code: 2, stderr: expect.stringContaining('add --force') });
    expect(await cli('report', '--account', alpha.address, '--resend')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--resend sends again a day already sent: add --force'),
    });
    expect(await cli('report', '--force', '--recipient', 'nobody@example.com')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('gets reports from no tracked account'),
    });
    expect(await cli('report', '--force', '--recipient', ops, '--account', bravo.address)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('does not mail'),
    });
  }, 120_000);
});

describe('issue 10 end to end, scheduled: report-dispatch, the report queue and the daily-report Lambda as built from its environment', () => {
  const tables = testTables();
  const desk = uniqueEmail('e2e-lambda-desk');
  const ops = uniqueEmail('e2e-lambda-ops');
  const accounts = [
    accountRecord({
      address: testAddress(11, SALT),
      label: 'lambda-one',
      emails: [desk, ops],
      timezone: 'UTC',
      reportAt: '08:00',
      nextReportAt: D0 + 8 * HOUR,
      createdAt: HISTORY_START,
    }),
    accountRecord({
      address: testAddress(12, SALT),
      label: 'lambda-two',
      emails: [desk],
      timezone: 'UTC',
      reportAt: '09:00',
      nextReportAt: D0 + 9 * HOUR,
      createdAt: HISTORY_START,
    }),
    accountRecord({
      address: testAddress(13, SALT),
      label: 'lambda-three',
      emails: [desk],
      timezone: 'Europe/Berlin',
      reportAt: '06:00',
      nextReportAt: nextReportAt(D0, '06:00', 'Europe/Berlin'),
      createdAt: HISTORY_START,
    }),
  ];
  let now = D0 + 4 * HOUR;
  let chain: ReportChain;
  // The Lambda bundle's template root: the templates with their precompiled module.
  const templates = mkdtempSync(join(tmpdir(), 'sentinel-e2e-templates-'));

  beforeAll(async () => {
    cpSync(defaultTemplateRoot(), templates, { recursive: true });
    writePrecompiledTemplates(templates);
    chain = await startReportChain(D0 + DAY + 12 * HOUR);
    const repos = createRepositories(tables.client, tables.prefix);
    for (const a of accounts) {
      await repos.accounts.create(a);
      await repos.curves.putPoints(a.address, a.interval, hourlyPoints(HISTORY_START, D0 + DAY, rising.equity, rising.pnl), D0 + 400 * DAY);
    }
  }, 60_000);

  afterAll(async () => {
    await chain.close();
    rmSync(templates, { recursive: true, force: true });
  });

  it('sends the digest recipient one digest a day covering its 3 accounts and the per-account recipient its report, once each', async () => {
    const env = {
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      SES_ENDPOINT: inject('sesEndpoint'),
      SENTINEL_TABLE_PREFIX: tables.prefix,
      PUBLIC_BASE_URL: 'http://127.0.0.1:9',
      SENTINEL_LINK_SECRET: 'test-link-secret-0123456789abcdef0123456789',
      MAIL_FROM: 'sentinel@example.com',
      MAIL_RATE: '1000',
      TEMPLATES_DIR: templates,
      ROCKET_NODE_URL: chain.sim.nodeUrl,
      ROCKET_INDEXER_URL: chain.sim.indexerUrl,
      // No channel exists here, so nothing is sent to it; loopback, so nothing could leave the machine.
      CHANNEL_QUEUE_URL: 'http://127.0.0.1:9/000000000000/sentinel-channel',
      FANOUT_QUEUE_URL: 'http://127.0.0.1:9/000000000000/sentinel-fanout',
    };
    const cli = cliRunner(env, () => now);
    expect(await cli('recipients', 'update', desk, '--digest', 'on', '--report-at', '07:00', '--timezone', 'UTC')).toMatchObject({ code: 0, stderr: '' });

    const deps = await reportWorkerDepsFromEnv(env);
    const clock = () => now;
    // An account report's chat notice is published whatever its channels (the fan-out routes it): here, to a recorder.
    const published: string[] = [];
    const fanOutQueue: MessageQueue<ReportFanOut> = {
      send: (entries) => {
        published.push(...entries.map((e) => e.body.report.notice.id));
        return Promise.resolve({ sent: entries.map((e) => e.id), failed: [] });
      },
    };
    const worker = createReportWorkerHandler({ ...deps, fanOutQueue, log: silentLog, now: clock });
    // report-dispatch reads the same tables (its own Lambda, its own repositories).
    const dispatchRepos = createRepositories(tables.client, tables.prefix);
    const pipeline = createLocalReportPipeline({
      schedule: dispatchRepos.schedule,
      recipients: dispatchRepos.recipients,
      ledger: dispatchRepos.reportLedger,
      log: silentLog,
      now: clock,
      consumer: worker,
    });
    const tick = async (at: number) => {
      now = at;
      await pipeline.dispatch();
      await pipeline.drain();
    };
    for (const hour of [4, 5, 7, 8, 9]) {
      await tick(D0 + hour * HOUR + MINUTE);
      await tick(D0 + hour * HOUR + 2 * MINUTE);
    }
    await tick(D0 + 23 * HOUR);
    const desks = await mailTo(desk);
    expect(eventIds(desks)).toEqual([`digest:day:${TODAY}`]);
    expectCovers(desks[0]!, accounts);
    expect(eventIds(await mailTo(ops))).toEqual([`report:${accounts[0]!.address}:${TODAY}`]);
    expect(published, "the account report's chat notice, once; a digest's are routed by the worker").toEqual([
      `daily-report:${accounts[0]!.address}:${addDays(TODAY, -1)}`,
    ]);

    await tick(D0 + DAY + 7 * HOUR + MINUTE);
    await tick(D0 + DAY + 7 * HOUR + 2 * MINUTE);
    expect(eventIds(await mailTo(desk))).toEqual([`digest:day:${TODAY}`, `digest:day:${TOMORROW}`]);
  }, 180_000);
});
