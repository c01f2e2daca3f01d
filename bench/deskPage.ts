/**
 * The desk page's server times and read units, against DynamoDB Local (in memory):
 * - the overview of `--accounts` accounts (default 100, hourly, a whole drawdown window of points
 *   and the drawdown rollup collect keeps), seen by an operator: first with every row measured
 *   from the store (no desk summary yet, as before the accounts' first polls since the upgrade),
 *   then from the summaries collect writes after each poll;
 * - an account page and its chart data (`/desk/api/.../series`) with 30 days of 1m points,
 *   downsampled on the server;
 * - first contentful paint of both pages in headless Chromium (`/usr/bin/chromium`).
 *
 * Each request goes through the real desk handler behind the local HTTP adapter (session check,
 * reads, HTML), timed from the client; read units are `ReturnConsumedCapacity` per page view.
 *
 *   npm run bench:desk-page [-- --accounts 100 --runs 40]
 */
import { chromium } from 'playwright-core';
import { ChannelSecrets } from '../functions/channels/channelSecrets';
import { accountSettingsSchema } from '../functions/domain/account';
import { INTERVAL_MS, type Interval } from '../functions/domain/interval';
import { lookbackWindowMs } from '../functions/domain/lookbackWindow';
import { newTrackedAccount } from '../functions/domain/trackedAccount';
import { createDeskPageHandler, deskRepositoryDeps } from '../functions/handlers/desk-page';
import { ActionLinks } from '../functions/links/actionLinks';
import { LinkTokenCodec } from '../functions/links/linkToken';
import { DEFAULT_COLLECT_SETTINGS } from '../functions/services/collect/collectSettings';
import { evaluateDrawdown } from '../functions/services/collect/evaluateDrawdown';
import { openSession } from '../functions/services/desk/deskSessions';
import { inProcessChannelTester } from '../functions/services/desk/inProcessChannelTester';
import { recordDeskSummary } from '../functions/services/desk/recordDeskSummary';
import { silentLog } from '../functions/shared/observability';
import { createTables } from '../functions/store/createTables';
import { createDocumentClient, createDynamoDbClient } from '../functions/store/documentClient';
import { createRepositories, type Repositories } from '../functions/store/repositories';
import { CsrfTokens } from '../functions/web/csrfToken';
import { newSessionSecret, sessionKeyOf } from '../functions/web/desk/sessionCookie';
import { startDynamoDbLocal } from '../local/dynamodb';
import { startLambdaHttpServer } from '../local/http/lambdaHttpAdapter';
import { localDeskAssets } from '../local/localDesk';
import { formatTable } from '../cli/output';
import { meterCapacity } from './costMeter';
import { prng } from './prng';
import { percentile } from './stats';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const ACCOUNTS = arg('accounts', 100);
const RUNS = arg('runs', 40);
/** After the machine's date, so DynamoDB Local's TTL sweep leaves the points alone. */
const NOW = Date.UTC(2030, 0, 7, 15);
const DAY = 86_400_000;
const SECRET = 'bench-desk-page-link-secret-0123456789abcdef';
const OPERATOR = 'ops@example.com';
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Stores `days` of calm points for a new account at `interval`, then builds its drawdown rollup as collect's first poll does. */
async function seed(repos: Repositories, n: number, interval: Interval, days: number): Promise<string> {
  const settings = accountSettingsSchema.parse({
    address: `0x${(n + 1).toString(16).padStart(40, '0')}`,
    email: `trader${n}@example.com`,
    label: `desk-${n}`,
    interval,
    drawdown: '5,10,20',
  });
  await repos.accounts.create(newTrackedAccount(settings, NOW - days * DAY));
  const random = prng(n + 1);
  let equity = 50_000 + 100_000 * random();
  let pnl = 0;
  const points = [];
  for (let ts = NOW - days * DAY; ts <= NOW; ts += INTERVAL_MS[interval]) {
    const change = equity * (0.00002 + 0.0004 * (random() - 0.5));
    equity += change;
    pnl += change;
    points.push({ ts, equity: String(equity), pnl: String(pnl) });
  }
  await repos.curves.putPoints(settings.address, interval, points, NOW + DEFAULT_COLLECT_SETTINGS.retentionMs);
  const account = (await repos.accounts.get(settings.address))!;
  await (await evaluateDrawdown(repos, account, NOW, DEFAULT_COLLECT_SETTINGS, await repos.alerts.listForAccount(account.address))).commit();
  return settings.address;
}

const dynamo = await startDynamoDbLocal({ inMemory: true });
try {
  const raw = createDynamoDbClient({ endpoint: dynamo.endpoint });
  const meter = meterCapacity(raw);
  const prefix = `benchdesk${Date.now().toString(36)}-`;
  await createTables(raw, prefix);
  const repos = createRepositories(createDocumentClient(raw), prefix, { now: () => NOW });
  // Sessions live in real time (as locally: links and sessions keep the wall clock, the figures the service's).
  const sessionRepos = createRepositories(createDocumentClient(raw), prefix);

  const hourlyDays = Math.ceil(lookbackWindowMs('1h', DEFAULT_COLLECT_SETTINGS.lookbackMs) / DAY);
  const seedStart = Date.now();
  const hourly: string[] = [];
  for (let n = 0; n < ACCOUNTS; n++) hourly.push(await seed(repos, n, '1h', hourlyDays));
  /** Each account's desk summary, as collect writes it at the end of a poll. */
  const summarise = async () => {
    for (const address of hourly) await recordDeskSummary(repos, (await repos.accounts.get(address))!, NOW);
  };
  const minutely = await seed(repos, ACCOUNTS, '1m', 30);
  const seeded = ((Date.now() - seedStart) / 1000).toFixed(0);

  const handler: { current?: ReturnType<typeof createDeskPageHandler> } = {};
  const server = await startLambdaHttpServer({
    routes: [{ path: '/desk', functionName: 'desk-page', handler: (event, context) => handler.current!(event, context) as never }],
  });
  const assets = localDeskAssets();
  const links = new ActionLinks(new LinkTokenCodec(SECRET), server.url);
  handler.current = createDeskPageHandler({
    reader: links,
    links,
    revokeLinks: links,
    csrf: new CsrfTokens(SECRET),
    publicBaseUrl: server.url,
    ...deskRepositoryDeps(repos),
    // The channels page's Test button is not measured: no channel secret is readable.
    channelTester: inProcessChannelTester(
      {
        channels: repos.channels,
        sender: { secrets: new ChannelSecrets({}, null), bases: { telegram: server.url, pagerduty: server.url }, policy: { loopback: true } },
        sleep: async () => {},
      },
      Date.now,
    ),
    stores: { sessions: sessionRepos.deskSessions, recipients: sessionRepos.deskRecipients },
    operatorEmail: OPERATOR,
    mail: { send: async () => ({ kind: 'sent' }) } as never,
    answerFloorMs: 0,
    sleep: async () => {},
    passkeys: false,
    assets,
    now: Date.now,
    figuresNow: () => NOW,
    log: silentLog,
  });
  const secret = newSessionSecret();
  await openSession({ sessions: sessionRepos.deskSessions, recipients: sessionRepos.deskRecipients }, sessionKeyOf(secret), OPERATOR, 'email-link', Date.now());
  const cookie = `sentinel-desk=${secret}`;

  const pages = [
    { name: `overview (${ACCOUNTS} accounts), no summaries`, path: '/desk', goal: 300 },
    { name: `overview (${ACCOUNTS} accounts)`, path: '/desk', goal: 300, before: summarise },
    { name: 'account page, 30 days of 1m points', path: `/desk/accounts/${minutely}?window=30d`, goal: 500 },
    { name: 'chart data, 30 days of 1m points', path: `/desk/api/accounts/${minutely}/series?window=30d`, goal: 500 },
  ];
  const rows: string[][] = [];
  for (const page of pages) {
    await page.before?.();
    const times: number[] = [];
    let units = 0;
    let bytes = 0;
    let points = '';
    for (let i = 0; i < RUNS + 3; i++) {
      meter.reset();
      const started = performance.now();
      const res = await fetch(`${server.url}${page.path}`, { headers: { cookie } });
      const body = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`${page.path} answered ${res.status}`);
      if (i < 3) continue; // warm-up: JIT, connections
      times.push(ms);
      units += [...meter.read().readUnits.values()].reduce((a, b) => a + b, 0);
      bytes = body.length;
      if (page.path.includes('/api/')) {
        const data = JSON.parse(body) as { stored: number; t: unknown[] };
        points = `${data.t.length} of ${data.stored}`;
      }
    }
    times.sort((a, b) => a - b);
    const p99 = percentile(times, 99);
    rows.push([
      page.name,
      percentile(times, 50).toFixed(0),
      p99.toFixed(0),
      `< ${page.goal}`,
      p99 < page.goal ? 'met' : 'MISSED',
      (units / RUNS).toFixed(1),
      `${(bytes / 1024).toFixed(0)} KB`,
      points || '—',
    ]);
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const paints: string[][] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'sentinel-desk', value: secret, url: server.url }]);
    for (const page of pages.slice(1, 3)) {
      const fcps: number[] = [];
      const firstBytes: number[] = [];
      const afterResponse: number[] = [];
      for (let i = 0; i < 6; i++) {
        const tab = await context.newPage();
        await tab.goto(`${server.url}${page.path}`, { waitUntil: 'load' });
        const fcp = await tab.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const found = performance.getEntriesByName('first-contentful-paint')[0];
              if (found) return resolve(found.startTime);
              new PerformanceObserver((list) => resolve(list.getEntries()[0]?.startTime ?? Number.NaN)).observe({ type: 'paint', buffered: true });
            }),
        );
        // Where the time before the paint went: the server's answer, then the browser's own work on it.
        const nav = await tab.evaluate(() => {
          const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
          return { firstByte: entry?.responseStart ?? Number.NaN, lastByte: entry?.responseEnd ?? Number.NaN };
        });
        // The chart's own data request runs after the paint: let it finish, so the next load is timed alone.
        await tab.waitForLoadState('networkidle');
        await tab.close();
        if (i > 0) {
          fcps.push(fcp);
          firstBytes.push(nav.firstByte);
          afterResponse.push(fcp - nav.lastByte);
        }
      }
      fcps.sort((a, b) => a - b);
      firstBytes.sort((a, b) => a - b);
      afterResponse.sort((a, b) => a - b);
      const worst = fcps.at(-1) ?? Number.NaN;
      paints.push([
        page.name,
        percentile(fcps, 50).toFixed(0),
        worst.toFixed(0),
        '< 1000',
        worst < 1000 ? 'met' : 'MISSED',
        percentile(firstBytes, 50).toFixed(0),
        percentile(afterResponse, 50).toFixed(0),
      ]);
    }
  } finally {
    await browser.close();
    await server.close();
  }

  console.log(`# bench/deskPage — ${new Date().toISOString()} (DynamoDB Local in memory; ${RUNS} runs after 3 warm-ups; seeding took ${seeded} s)`);
  console.log(`Server time per request, from the client through the local HTTP adapter (ms), and DynamoDB read units per page view.\n`);
  console.log(formatTable(['PAGE', 'P50 MS', 'P99 MS', 'GOAL', '', 'RRU / VIEW', 'HTML/JSON', 'POINTS SENT'], rows));
  console.log(`\nFirst contentful paint in headless Chromium (ms, 5 loads after one warm-up, built client served from memory):\n`);
  console.log(formatTable(['PAGE', 'P50 MS', 'WORST MS', 'GOAL', '', 'FIRST BYTE P50', 'PAINT AFTER LAST BYTE P50'], paints));
} finally {
  await dynamo.stop();
}
