import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrackedAccount } from '../../../../functions/domain/account';
import type { SeriesPoint } from '../../../../functions/domain/series';
import { formatTime } from '../../../../functions/mail/render/format';
import { DEFAULT_COLLECT_SETTINGS } from '../../../../functions/services/collect/collectSettings';
import { drawdownPoll } from '../../../support/collect/drawdownPoll';
import { snoozeByOperator } from '../../../../functions/services/snooze/snoozeByOperator';
import { unsnoozeByOperator } from '../../../../functions/services/snooze/unsnoozeByOperator';
import { createRepositories } from '../../../../functions/store/repositories';
import {
  changedCursor,
  deskClient,
  expectCursorsRefused,
  hiddenFields,
  signIn,
  startDeskWorld,
  type DeskClient,
  type DeskWorld,
} from '../../../support/desk/deskWorld';
import { unescapeHtml } from '../../../support/htmlText';
import { testTables } from '../../../support/testTables';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** After the machine's date, so DynamoDB Local's TTL sweep leaves the points alone. */
const START = Date.UTC(2030, 1, 4);
const tables = testTables();
const run = Math.random().toString(36).slice(2, 8);
const viewer = `hist-${run}@example.com`;
let world: DeskWorld;
let client: DeskClient;

beforeAll(async () => {
  world = await startDeskWorld(tables);
  client = deskClient(world);
});
afterAll(() => world?.close());

/** The rows of the table of the section headed `heading`. */
function rowsOf(body: string, heading: string): string[] {
  const section = body.split(`>${heading}</h2>`)[1]?.split('</section>')[0] ?? '';
  return [...section.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((m) =>
      (m[1] ?? '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .slice(1);
}

/** The "Older" link of a section, or null. */
function olderOf(body: string, what: string): string | null {
  const match = new RegExp(`href="([^"]+)" rel="next">Older<span class="visually-hidden"> ${what}`).exec(body);
  return match ? unescapeHtml(match[1] ?? '') : null;
}

describe("an account's alert history on the desk: recorded as it happens, read newest first", () => {
  it('records each level fired and recovered when collect commits it, a crossing found in a filled gap marked late with its own time', async () => {
    const account = await world.addAccount(1, { emails: [viewer], label: 'gap', interval: '1h', drawdownThresholds: [5, 10, 20], timezone: 'UTC' });
    let now = START;
    const repos = () => createRepositories(tables.client, tables.prefix, { now: () => now });
    const series: SeriesPoint[] = [];
    const extend = (returns: readonly number[]) =>
      returns.map((r) => {
        const prev = series.at(-1) ?? { timestamp: START - 10 * DAY, equity: 100_000, pnl: 0 };
        const point = { timestamp: prev.timestamp + HOUR, equity: prev.equity * (1 + r), pnl: prev.pnl + prev.equity * r };
        series.push(point);
        return point;
      });
    const write = (points: readonly SeriesPoint[]) =>
      repos().curves.putPoints(
        account.address,
        '1h',
        points.map((p) => ({ ts: p.timestamp, equity: String(p.equity), pnl: String(p.pnl) })),
        now + DEFAULT_COLLECT_SETTINGS.retentionMs,
      );
    const poll = async (writtenFromMs: number | null) => {
      const pending = await drawdownPoll(repos(), (await repos().accounts.get(account.address))!, now, writtenFromMs);
      await pending.commit();
      return pending;
    };
    await write(extend(Array.from({ length: 10 * 24 - 1 }, (_, i) => (i % 2 === 0 ? 0.0004 : -0.0002))));
    now = series.at(-1)!.timestamp + 60_000;
    await poll(null);
    expect((await world.repos.history.alerts(account.address, 10, null)).entries).toEqual([]);

    // Six hours without the chain: down 12.5% in three, then back to about 3.4% below the peak.
    const gap = extend([-0.05, -0.05, -0.03, 0.04, 0.04, 0.02]);
    await write(gap);
    now = gap.at(-1)!.timestamp + 60_000;
    const filled = await poll(gap[0]!.timestamp);
    const notice = filled.events[0]!;
    if (notice.kind !== 'drawdown') throw new Error('expected a drawdown notice');

    const stored = (await world.repos.history.alerts(account.address, 10, null)).entries;
    // Newest first: the recoveries at the poll, then the crossings at the gap's own time.
    expect(stored.map((e) => [e.kind, 'level' in e ? e.level : null])).toEqual([
      ['recovered', 10],
      ['recovered', 5],
      ['fired', 10],
      ['fired', 5],
    ]);
    expect(stored[2]).toMatchObject({ kind: 'fired', at: gap[2]!.timestamp, lateByMs: notice.lateByMs, recordedAt: now, notified: true });
    // Redone (a redelivered poll committing the same evaluation): the same items, nothing doubled.
    await filled.commit();
    expect((await world.repos.history.alerts(account.address, 10, null)).entries).toHaveLength(4);

    await signIn(world, client, viewer);
    const page = await client.get(`/desk/accounts/${account.address}`);
    expect(page.status).toBe(200);
    const rows = rowsOf(page.body, 'Alert history');
    expect(rows).toHaveLength(4);
    expect(rows[2]).toContain(`${formatTime(gap[2]!.timestamp, 'UTC')} fired late 10%`);
    expect(rows[2]).toMatch(/late: announced .+ after the crossing/);
    expect(rows[2]).toContain(`at ${formatTime(now, 'UTC')}; alerted`);
    expect(rows[0]).toMatch(new RegExp(`^${formatTime(now, 'UTC')} recovered 10% `));
  });

  it('records who snoozed what and until when, and who lifted it: an operator from the CLI, the viewer from the desk', async () => {
    const account = await world.addAccount(2, { emails: [viewer], label: 'snoozes', timezone: 'UTC' });
    // Both snoozes a little in the past: the desk's Lift below runs on the real clock, after them.
    const at = Date.now() - 10_000;
    const deps = { alerts: world.repos.alerts, audit: world.repos.audit, history: world.repos.history, now: () => at };
    const until = at + 6 * HOUR;
    await snoozeByOperator(deps, { address: account.address, recipient: null, untilMs: until, by: 'cli:ops@host' });
    await snoozeByOperator({ ...deps, now: () => at + 1_000 }, { address: account.address, recipient: viewer, untilMs: until, by: 'cli:ops@host' });
    await signIn(world, client, viewer);
    const alerts = await client.get('/desk/alerts');
    expect((await client.post('/desk/alerts/lift', { ...hiddenFields(alerts.body, '/desk/alerts/lift'), account: account.address })).status).toBe(303);
    await unsnoozeByOperator({ ...deps, now: () => Date.now() + 2_000 }, { address: account.address, recipient: null, by: 'cli:ops@host' });

    const rows = rowsOf((await client.get(`/desk/accounts/${account.address}`)).body, 'Alert history');
    expect(rows).toEqual([
      expect.stringMatching(/snooze lifted every recipient by operator \(cli:ops@host\)$/),
      expect.stringMatching(new RegExp(`snooze lifted ${viewer} by ${viewer} \\(desk page\\)$`)),
      expect.stringContaining(`snoozed ${viewer} by operator (cli:ops@host), until ${formatTime(until, 'UTC')}`),
      expect.stringContaining(`snoozed every recipient by operator (cli:ops@host), until ${formatTime(until, 'UTC')}`),
    ]);
  });

  it('pages older events behind an "Older" link whose cursor is checked: a changed one, or one of another account or section, is a 400', async () => {
    const paged = await world.addAccount(3, { emails: [viewer], label: 'paged', timezone: 'UTC' });
    const other = await world.addAccount(4, { emails: [viewer], label: 'other', timezone: 'UTC' });
    const at = Date.UTC(2030, 0, 1);
    const snoozes = (account: TrackedAccount) =>
      world.repos.history.recordAlerts(
        account.address,
        Array.from(
          { length: 30 },
          (_, i) => ({ kind: 'snoozed', scope: { kind: 'channel', name: `c${i}` }, by: 'chat button', until: at + DAY, at: at + i * HOUR }) as const,
        ),
      );
    await Promise.all([snoozes(paged), snoozes(other)]);
    await signIn(world, client, viewer);

    const first = await client.get(`/desk/accounts/${paged.address}`);
    const newest = rowsOf(first.body, 'Alert history');
    expect(newest).toHaveLength(25);
    expect(newest[0]).toContain('channel c29');
    expect(newest[24]).toContain('channel c5');
    const older = olderOf(first.body, 'alert events');
    expect(older).not.toBeNull();
    const second = await client.get(older!);
    expect(second.status).toBe(200);
    expect(rowsOf(second.body, 'Alert history').map((r) => /channel (c\d+)/.exec(r)?.[1])).toEqual(['c4', 'c3', 'c2', 'c1', 'c0']);
    expect(olderOf(second.body, 'alert events')).toBeNull();

    const url = new URL(older!);
    const cursor = url.searchParams.get('alerts')!;
    const tries = [
      `/desk/accounts/${paged.address}?alerts=${encodeURIComponent(changedCursor(cursor))}`,
      // The same cursor on another account the viewer receives, and as another section's.
      `/desk/accounts/${other.address}?alerts=${encodeURIComponent(cursor)}`,
      `/desk/accounts/${paged.address}?deliveries=${encodeURIComponent(cursor)}`,
      `/desk/accounts/${paged.address}?alerts=not-a-cursor`,
    ];
    await expectCursorsRefused(client, tries, (body) => body.includes('channel c'));
  });

  it('shows what was sent about the account, to whom and where, and how it ended, newest first', async () => {
    const account = await world.addAccount(5, { emails: [viewer], label: 'deliveries', timezone: 'UTC' });
    const at = Date.now() - 60_000;
    await world.repos.history.recordDelivery(account.address, {
      via: 'email',
      to: viewer,
      what: 'drawdown-alert',
      outcome: 'sent',
      reason: null,
      at,
      eventId: 'e1',
    });
    await world.repos.history.recordDelivery(account.address, {
      via: 'channel',
      to: 'desk-slack',
      what: 'drawdown',
      outcome: 'failed',
      reason: 'the channel refused it and is marked broken: channel_not_found',
      at: at + 1_000,
      eventId: 'e1',
    });
    await signIn(world, client, viewer);
    const rows = rowsOf((await client.get(`/desk/accounts/${account.address}`)).body, 'Deliveries');
    expect(rows).toEqual([
      `${formatTime(at + 1_000, 'UTC')} drawdown channel desk-slack failed the channel refused it and is marked broken: channel_not_found`,
      `${formatTime(at, 'UTC')} drawdown-alert ${viewer} sent`,
    ]);
  });
  it('shows a recipient left out, a missed report and its late send in words, each with its badge', async () => {
    const account = await world.addAccount(6, { emails: [viewer], label: 'missed', timezone: 'UTC' });
    const due = Date.now() - 3 * HOUR;
    const eventId = `report:${account.address}:2030-01-01`;
    const entries = [
      { outcome: 'suppressed', to: 'gone@example.com', reason: 'the address is suppressed after a bounce or complaint', at: due },
      { outcome: 'missed', to: viewer, reason: 'no attempt delivered it within 60 min of its due time', at: due },
      { outcome: 'reconciled', to: viewer, reason: `a late send of the report missed at ${formatTime(due, 'UTC')}`, at: due + 2 * HOUR },
    ] as const;
    for (const e of entries) await world.repos.history.recordDelivery(account.address, { via: 'email', what: 'daily-report', eventId, ...e });
    await signIn(world, client, viewer);
    const body = (await client.get(`/desk/accounts/${account.address}`)).body;
    expect(rowsOf(body, 'Deliveries')).toEqual([
      `${formatTime(due + 2 * HOUR, 'UTC')} daily-report ${viewer} sent late (reconciled) a late send of the report missed at ${formatTime(due, 'UTC')}`,
      `${formatTime(due, 'UTC')} daily-report ${viewer} missed no attempt delivered it within 60 min of its due time`,
      `${formatTime(due, 'UTC')} daily-report gone@example.com suppressed the address is suppressed after a bounce or complaint`,
    ]);
    expect(body).toContain('<span class="badge b-info">sent late (reconciled)</span>');
    expect(body).toContain('<span class="badge b-bad">missed</span>');
  });
});
