import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createPreferencesPageHandler } from '../../../functions/handlers/preferences-page';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { createRepositories } from '../../../functions/store/repositories';
import { startLambdaHttpServer, type LambdaHttpServer } from '../../../local/http/lambdaHttpAdapter';
import { startSimulator } from '../../../local/sim';
import { SimControlClient } from '../../../local/sim/controlClient';
import { cliRunner } from '../../support/cli/cliHarness';
import { CALM, SIM_START } from '../../support/collect/pipelineHarness';
import { formOf, getPage, submitForm, titleOf } from '../../support/revocation/revocationWorld';
import { sesStore } from '../../support/sesStore';
import { testTables } from '../../support/testTables';
import { preferencesPageOf } from '../../support/revocation/linkPages';

const HOUR = 3_600_000;
const SECRET = 'recipient-snooze-e2e-link-secret-0123456789abcdef';

/**
 * One recipient's snooze silences that recipient only: the chain simulator over HTTP, DynamoDB
 * Local, local SES, `sentinel collect` (the real collect and notify path) and the real snooze page
 * behind the local HTTP adapter, all on one stopped clock.
 */
describe('a snooze from an alert link silences the one who clicked it', () => {
  const tables = testTables();
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let server: LambdaHttpServer;
  let cli: ReturnType<typeof cliRunner>;
  let now = SIM_START;
  const clock = () => now;

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11, clock: { startMs: SIM_START, speed: 0 }, historyDays: 30 });
    const page: { handler?: ReturnType<typeof createPreferencesPageHandler> } = {};
    server = await startLambdaHttpServer({
      routes: [{ path: '/snooze', functionName: 'preferences-page', handler: (event, context) => page.handler!(event, context) }],
    });
    const repos = createRepositories(tables.client, tables.prefix, { now: clock });
    page.handler = preferencesPageOf({
      repos,
      links: new ActionLinks(new LinkTokenCodec(SECRET), server.url),
      secret: SECRET,
      publicBaseUrl: server.url,
      now: clock,
    });
    cli = cliRunner(
      {
        SENTINEL_TABLE_PREFIX: tables.prefix,
        ROCKET_NODE_URL: sim.nodeUrl,
        ROCKET_INDEXER_URL: sim.indexerUrl,
        PUBLIC_BASE_URL: server.url,
        SENTINEL_LINK_SECRET: SECRET,
      },
      clock,
    );
  });
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  });

  it('three recipients; one snoozes at 10%; at 20% the other two are emailed and the snoozer is not', async () => {
    const control = new SimControlClient(sim.controlUrl);
    const advance = async (ms: number) => {
      await control.advanceClock(ms);
      now += ms;
    };
    const run = randomUUID().slice(0, 8);
    const [trader, snoozer, risk] = ['trader', 'snoozer', 'risk'].map((who) => `${who}+${run}@example.com`) as [string, string, string];
    const drawdownAlerts = async (to: string) => (await sesStore({ to })).filter((m) => /\/snooze\?token=/.test(m.body.text ?? ''));

    const { address } = await control.createAccount({ label: 'desk', profile: CALM } as never);
    const added = await cli(
      'accounts',
      'add',
      address,
      '--email',
      `${trader},${snoozer},${risk}`,
      '--label',
      'desk',
      '--drawdown',
      '5,10,20',
      '--timezone',
      'Europe/Berlin',
      '--delegate-watch',
      'none',
    );
    expect(added.code, added.stderr).toBe(0);
    expect((await cli('collect', '--account', address)).code).toBe(0);

    await control.drawdown(address, { pct: 12 });
    await advance(2 * HOUR);
    expect((await cli('collect', '--account', address)).code).toBe(0);
    for (const who of [trader, snoozer, risk]) expect(await drawdownAlerts(who), who).toHaveLength(1);

    // The snoozer presses "Snooze 7 days" in their own copy of the 10% alert.
    const [alert] = await drawdownAlerts(snoozer);
    const links = [...(alert?.body.text ?? '').matchAll(/(http:\/\/\S+\/snooze\?token=\S+)/g)].map((m) => m[1] ?? '');
    expect(links).toHaveLength(2);
    const confirm = await getPage(links[1]!);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain(snoozer);
    const form = formOf(confirm);
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(titleOf(done)).toBe('Alerts snoozed for you');
    expect(done.html).toMatch(
      new RegExp(
        `Drawdown alerts for desk \\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\\) are snoozed for YOU \\(${snoozer.replace(/[+.]/g, '\\$&')}\\) until .*CET; other recipients still get them`,
      ),
    );

    // The account's alert history says who snoozed, and until when.
    expect((await createRepositories(tables.client, tables.prefix).history.alerts(address, 25, null)).entries).toContainEqual(
      expect.objectContaining({ kind: 'snoozed', scope: { kind: 'recipient', email: snoozer }, by: `${snoozer} (email link)` }),
    );

    // A deeper loss crosses 20% while the snooze runs.
    await control.drawdown(address, { pct: 15 });
    await advance(2 * HOUR);
    const collected = await cli('collect', '--account', address, '--json');
    expect(collected.code, collected.stderr).toBe(0);
    for (const who of [trader, risk]) {
      const mails = await drawdownAlerts(who);
      expect(mails, who).toHaveLength(2);
      expect(mails[1]?.subject).toMatch(/20%/);
    }
    expect(await drawdownAlerts(snoozer)).toHaveLength(1);

    // The account's levels kept advancing; the snooze shows in `alerts list` and `status`.
    const list = await cli('alerts', 'list', '--account', address, '--json');
    const listed = JSON.parse(list.stdout) as { snoozes: { who: string }[]; breaches: { level: number }[] };
    expect(listed.snoozes.map((s) => s.who)).toEqual([snoozer]);
    expect(listed.breaches.map((b) => b.level)).toEqual([5, 10, 20]);
    // Collect recorded each crossing in the account's history as it committed the levels.
    const fired = (await createRepositories(tables.client, tables.prefix).history.alerts(address, 25, null)).entries.filter((e) => e.kind === 'fired');
    expect(fired.map((e) => ('level' in e ? e.level : null)).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([5, 10, 20]);
    expect((await cli('status', address)).stdout).toContain(`drawdown alerts snoozed for ${snoozer} until`);
  });
});
