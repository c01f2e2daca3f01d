import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackedAccount } from '../../../../functions/domain/account';
import { addDays, localDate } from '../../../../functions/domain/localTime';
import { loadSettings } from '../../../../functions/config/settings';
import { ActionLinks } from '../../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../../functions/links/linkToken';
import { sendAccountReport } from '../../../../functions/services/report/send/sendAccountReport';
import { accountStatus } from '../../../../functions/services/status/accountStatus';
import { overviewRow } from '../../../../functions/services/desk/overviewRow';
import { summaryRow } from '../../../../functions/services/desk/summaryRow';
import { memoryCounters, silentLog } from '../../../../functions/shared/observability';
import { localMailDeps } from '../../../../local/localSystem';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { sesSender } from '../../../support/delivery/mailHarness';
import { DESK_SECRET, deskClient, signIn, startDeskWorld, type DeskClient, type DeskWorld } from '../../../support/desk/deskWorld';
import { sesStore } from '../../../support/sesStore';
import { DESK_SUMMARY_KEY_PREFIX, DESK_SUMMARY_RULE } from '../../../../functions/store/deskSummaryRepository';
import { tableName } from '../../../../functions/store/tableDefinitions';

const HOUR = 3_600_000;
const OPS = 'ops@example.com';
/** Zones whose midnights need each sampling: whole hours (UTC, New York), half hours (Kolkata), quarter hours (Kathmandu, Chatham). */
const ZONES = [
  { label: 'utc', timezone: 'UTC', interval: '1h' },
  { label: 'newyork', timezone: 'America/New_York', interval: '1h' },
  { label: 'kolkata', timezone: 'Asia/Kolkata', interval: '30m' },
  { label: 'kathmandu', timezone: 'Asia/Kathmandu', interval: '15m' },
  { label: 'chatham', timezone: 'Pacific/Chatham', interval: '15m' },
] as const;

const h = pipelineHarness();
let world: DeskWorld;
let ops: DeskClient;
const tracked = new Map<string, TrackedAccount>();
const run = Math.random().toString(36).slice(2, 8);
const emailOf = (label: string) => `${label}-${run}@example.com`;

beforeAll(async () => {
  for (const zone of ZONES) {
    const created = await h.track(zone.label, { email: emailOf(zone.label), interval: zone.interval, timezone: zone.timezone, drawdown: '1,2,50' }, CALM);
    tracked.set(zone.label, (await h.repos.accounts.get(created.address))!);
  }
  // First polls (a week of history), then a day of regular polls: every zone's yesterday is stored whole.
  await h.pipeline.runCycle({ kind: 'due' });
  for (let i = 0; i < 30; i++) {
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'due' });
  }
  world = await startDeskWorld(h.tables, { repos: h.repos, now: h.now, operatorEmail: OPS });
  ops = deskClient(world);
  await signIn(world, ops, OPS);
}, 240_000);
afterAll(async () => {
  await world?.close();
});

/** The text of a `<dt>` row on a desk page. */
function figure(body: string, term: string): string {
  const match = new RegExp(`<dt>${term}</dt><dd>(?:<span[^>]*>)?([^<]*)`).exec(body);
  if (!match) throw new Error(`no "${term}" on the page`);
  return match[1]!;
}

/** The value after `label` on one line of a plain-text email. */
function line(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match) throw new Error(`no ${pattern} in the email`);
  return match[1]!.trim();
}

describe('the desk page and the emails', () => {
  it("show the same day figures and drawdown, to the cent, for every zone's report day", async () => {
    const settings = loadSettings({ MAIL_FROM: 'sentinel@example.com', SENTINEL_LINK_SECRET: DESK_SECRET });
    const links = new ActionLinks(new LinkTokenCodec(DESK_SECRET), world.server.url);
    const deps = localMailDeps({ settings, repos: h.repos, log: silentLog, counters: memoryCounters(), now: h.now }, links, h.chain, sesSender());
    for (const zone of ZONES) {
      const account = tracked.get(zone.label)!;
      const outcome = await sendAccountReport(deps, account, { kind: 'extra', regularIfDue: false }, h.now());
      expect(outcome.kind, zone.label).toBe('sent');
      const mails = await sesStore({ to: emailOf(zone.label) });
      const text = mails.at(-1)?.body.text ?? '';
      const day = addDays(localDate(h.now(), zone.timezone), -1);
      const page = await ops.get(`/desk/accounts/${account.address}?day=${day}`);
      expect(page.status, zone.label).toBe(200);
      const body = page.body;
      expect(figure(body, 'PnL'), zone.label).toBe(line(text, /PnL for the day: (.+)/));
      expect(figure(body, 'Equity at the end'), zone.label).toBe(line(text, /Equity:\s+(\S+) at the end/));
      expect(figure(body, 'Equity at the start'), zone.label).toBe(line(text, /\(start of day (\S+)\)/));
      expect(figure(body, 'Return \\(flow-adjusted\\)'), zone.label).toBe(line(text, /Return:\s+(\S+) \(flow-adjusted\)/));
      expect(figure(body, 'Current \\(flow-adjusted\\)'), zone.label).toBe(line(text, /Drawdown \(trading, flow-adjusted\) now:\s+(\S+)/));
      expect(figure(body, 'Deepest in the drawdown window'), zone.label).toBe(line(text, /Drawdown \(trading, flow-adjusted\), deepest: (\S+)/));
      // The day is a real one: points at both ends.
      expect(line(text, /PnL for the day: (.+)/)).toMatch(/\$\d/);
    }
  }, 120_000);

  it('lists every account on the overview with the drawdown and levels of status, as of the newest point', async () => {
    const overview = await ops.get('/desk');
    expect(overview.status).toBe(200);
    for (const zone of ZONES) {
      const account = tracked.get(zone.label)!;
      const status = (await accountStatus(h.repos, account.address, h.now()))!;
      const row = new RegExp(`<tr>\\s*<th scope="row"><a href="[^"]*/desk/accounts/${account.address}">[\\s\\S]*?</tr>`).exec(overview.body)?.[0] ?? '';
      expect(row, zone.label).not.toBe('');
      const current = status.drawdown!.currentPct;
      expect(row).toContain(`<td class="num">${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(current)}%`);
      expect(row).toContain(`against levels 1, 2, 50`);
      expect(row).toMatch(/<span class="badge b-ok">ok<\/span>/);
    }
    expect(overview.body).toMatch(/<li>5 accounts<\/li>/);
  });

  it("reads each account's row from the summary its latest poll stored, equal to the row measured from the store", async () => {
    for (const zone of ZONES) {
      const account = (await h.repos.accounts.get(tracked.get(zone.label)!.address))!;
      const summary = (await h.repos.deskSummaries.getMany([account.address])).get(account.address);
      expect(summary, zone.label).toBeDefined();
      expect(summary!.today.figures, zone.label).not.toBeNull();
      expect(summaryRow(account, summary!, h.now()), zone.label).toEqual(await overviewRow(h.repos, account, h.now()));
    }
  });

  it('shows what the summary holds, and measures a row from the store when its summary is unusable or missing', async () => {
    const account = (await h.repos.accounts.get(tracked.get('utc')!.address))!;
    const summary = (await h.repos.deskSummaries.getMany([account.address])).get(account.address)!;
    const rowOf = (body: string) =>
      new RegExp(`<tr>\\s*<th scope="row"><a href="[^"]*/desk/accounts/${account.address}">[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';
    const status = (await accountStatus(h.repos, account.address, h.now()))!;
    const measured = `<td class="num">${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(status.drawdown!.currentPct)}%`;
    try {
      await h.repos.deskSummaries.put({ ...summary, drawdownPct: 42.42 });
      expect(rowOf((await ops.get('/desk')).body)).toContain('<td class="num">42.42%');
      // Measured in another zone: not this account's day, so the row is measured from the store.
      await h.repos.deskSummaries.put({ ...summary, drawdownPct: 42.42, timezone: 'Asia/Kolkata' });
      const fallback = rowOf((await ops.get('/desk')).body);
      expect(fallback).not.toContain('42.42%');
      expect(fallback).toContain(measured);
      // No summary at all (an account no poll has summarised yet): measured from the store too.
      await h.tables.client.send(
        new DeleteCommand({
          TableName: tableName(h.tables.prefix, 'alerts'),
          Key: { address: `${DESK_SUMMARY_KEY_PREFIX}${account.address}`, rule: DESK_SUMMARY_RULE },
        }),
      );
      expect(await h.repos.deskSummaries.getMany([account.address])).toEqual(new Map());
      expect(rowOf((await ops.get('/desk')).body)).toContain(measured);
    } finally {
      await h.repos.deskSummaries.put(summary);
    }
  });

  it("serves an account's chart data with every stored point of the window (at most a few thousand), and 404 for an account not received", async () => {
    const account = tracked.get('utc')!;
    const api = await ops.get(`/desk/api/accounts/${account.address}/series?window=7d`);
    expect(api.status).toBe(200);
    const data = JSON.parse(api.body) as { stored: number; t: number[]; equity: number[]; drawdown: number[] };
    const stored = (await h.repos.curves.queryRange(account.address, '1h', h.now() - 7 * 24 * HOUR, h.now())).length;
    expect(data.stored).toBe(stored);
    expect(data.t).toHaveLength(stored);
    expect(data.equity).toHaveLength(stored);

    const all = JSON.parse((await ops.get(`/desk/api/accounts/${account.address}/series?window=all`)).body) as { drawdown: number[] };
    const status = (await accountStatus(h.repos, account.address, h.now()))!;
    expect(Math.max(...all.drawdown)).toBeCloseTo(status.drawdown!.maxPct, 10);

    const recipient = deskClient(world);
    await signIn(world, recipient, emailOf('utc'));
    expect((await recipient.get(`/desk/accounts/${account.address}`)).status).toBe(200);
    const other = tracked.get('kolkata')!;
    for (const path of [`/desk/accounts/${other.address}`, `/desk/accounts/${other.address}?day=2030-01-07`, `/desk/api/accounts/${other.address}/series`]) {
      expect((await recipient.get(path)).status, path).toBe(404);
    }
    const overview = await recipient.get('/desk');
    expect(overview.body).toContain(account.address);
    expect(overview.body).not.toContain(other.address);
  });
});
