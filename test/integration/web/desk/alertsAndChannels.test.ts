import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAWDOWN_RULE } from '../../../../functions/domain/drawdownState';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';
import { delegateView } from '../../../support/report/reportFixture';
import { deskClient, hiddenFields, signIn, startDeskWorld, type DeskWorld } from '../../../support/desk/deskWorld';
import { testTables } from '../../../support/testTables';

const HOUR = 3_600_000;
const tables = testTables();
let world: DeskWorld;
const run = Math.random().toString(36).slice(2, 8);
const alice = `alice-${run}@example.com`;
const bob = `bob-${run}@example.com`;
const ops = `ops-${run}@example.com`;
const addresses: string[] = [];

const breached = (at: number) => ({ status: 'breached', lastValue: 12, breachedAt: at, lastSentAt: at });
const armed = { status: 'armed', lastValue: 12, breachedAt: null, lastSentAt: null };

beforeAll(async () => {
  world = await startDeskWorld(tables, { operatorEmail: ops });
  const now = Date.now();
  const shallow = await world.addAccount(1, { emails: [alice, bob], label: 'shallow', drawdownThresholds: [5, 10] });
  const deep = await world.addAccount(2, { emails: [alice], label: 'deep', drawdownThresholds: [5, 10, 20] });
  const hidden = await world.addAccount(3, { emails: [bob], label: 'bobs', drawdownThresholds: [5] });
  addresses.push(shallow.address, deep.address, hidden.address);
  const alerts = world.repos.alerts;
  expect((await alerts.compareAndSet(shallow.address, DRAWDOWN_RULE, null, { levels: { '5': breached(now - 3 * HOUR), '10': armed } })).kind).toBe('written');
  expect(
    (await alerts.compareAndSet(deep.address, DRAWDOWN_RULE, null, { levels: { '5': breached(now - 2 * HOUR), '10': breached(now - HOUR), '20': armed } }))
      .kind,
  ).toBe('written');
  expect((await alerts.compareAndSet(hidden.address, DRAWDOWN_RULE, null, { levels: { '5': breached(now - HOUR) } })).kind).toBe('written');
  await alerts.snoozeRecipient(shallow.address, alice, now + 24 * HOUR, now);
  await alerts.snoozeRecipient(shallow.address, bob, now + 48 * HOUR, now);
  await alerts.snoozeRecipient(hidden.address, bob, now + 48 * HOUR, now);
  await world.repos.channels.create(
    channelRecordOf(
      {
        name: `ok-${run}`,
        type: 'slack',
        secret: 'env:DESK_SLACK',
        url: 'https://hooks.slack.com/services/T/B/secret-part',
        accounts: [shallow.address as never],
      },
      now,
    ),
  );
  await world.repos.channels.create(
    channelRecordOf({ name: `broken-${run}`, type: 'discord', secret: 'env:DESK_DISCORD', accounts: [deep.address as never] }, now),
  );
  await world.repos.channels.setState(`broken-${run}`, { kind: 'broken', reason: 'webhook removed (404)', since: now - HOUR });
  await world.repos.channels.recordDelivery(`ok-${run}`, { at: now - 600_000, outcome: 'delivered' });
});
afterAll(() => world?.close());

/** The rows of the table in the region labelled `label`. */
function rowsOf(body: string, label: string): string[] {
  const region = new RegExp(`aria-label="${label}">([\\s\\S]*?)</table>`).exec(body)?.[1] ?? '';
  return [...region.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)].flatMap((m) => (m[1] ?? '').split('</tr>').filter((r) => r.includes('<tr>')));
}

describe('the alerts and snoozes page', () => {
  it("lists the viewer's open alerts worst first and its own snoozes, nothing of accounts it does not receive", async () => {
    const client = deskClient(world);
    await signIn(world, client, alice);
    const page = await client.get('/desk/alerts');
    expect(page.status).toBe(200);
    const open = rowsOf(page.body, 'Open alerts');
    expect(open.map((r) => />(\d+)%</.exec(r)?.[1])).toEqual(['10', '5', '5']);
    expect(open[0]).toContain(addresses[1]);
    // Same level: the one breached earliest first.
    expect(open[1]).toContain(addresses[0]);
    expect(page.body).not.toContain(addresses[2]);
    const snoozes = rowsOf(page.body, 'Your snoozes');
    expect(snoozes).toHaveLength(1);
    expect(snoozes[0]).toContain(addresses[0]);
  });

  it("lifts the viewer's own snooze only (the other recipient's stays), and answers 404 for an account it does not receive", async () => {
    const client = deskClient(world);
    await signIn(world, client, alice);
    const page = await client.get('/desk/alerts');
    const fields = hiddenFields(page.body, '/desk/alerts/lift');
    expect(fields['account']).toBe(addresses[0]);
    expect((await client.post('/desk/alerts/lift', { ...fields, csrf: 'x'.repeat(43) })).status).toBe(403);
    const lifted = await client.post('/desk/alerts/lift', fields);
    expect(lifted.status).toBe(303);
    expect(lifted.headers.get('location')).toBe(`${world.baseUrl}/desk/alerts?notice=lifted`);
    const snoozes = await world.repos.alerts.recipientSnoozes(addresses[0]!);
    expect(Object.keys(snoozes).filter((email) => (snoozes[email] ?? 0) > Date.now())).toEqual([bob]);
    expect(rowsOf((await client.get('/desk/alerts')).body, 'Your snoozes')).toEqual([]);

    const other = await client.post('/desk/alerts/lift', { ...fields, account: addresses[2]! });
    expect(other.status).toBe(404);
    expect((await world.repos.alerts.recipientSnoozes(addresses[2]!))[bob]).toBeGreaterThan(Date.now());
  });
});

describe('the channels page', () => {
  it('shows operators each channel, broken first with why and since when, never its URL; 404 for anyone else', async () => {
    const operator = deskClient(world);
    await signIn(world, operator, ops);
    const page = await operator.get('/desk/channels');
    expect(page.status).toBe(200);
    const rows = rowsOf(page.body, 'Channels').filter((r) => r.includes(run));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(`broken-${run}`);
    expect(rows[0]).toContain('webhook removed (404)');
    expect(rows[1]).toContain(`ok-${run}`);
    expect(rows[1]).toMatch(/b-ok">delivered<\/span> <time[^>]*>10 min(utes)? ago/);
    expect(page.body).not.toContain('hooks.slack.com');
    expect(page.body).not.toContain('DESK_SLACK');

    const recipient = deskClient(world);
    await signIn(world, recipient, alice);
    expect((await recipient.get('/desk/channels')).status).toBe(404);
    expect((await recipient.get('/desk')).body).not.toContain('/desk/channels');
  });
});

describe('the account page', () => {
  it('posts its forms only to paths the desk serves: sign-out, and each Revoke button answered with a link to the confirmation page', async () => {
    const client = deskClient(world);
    await signIn(world, client, alice);
    await world.repos.delegates.putMany([delegateView(addresses[1]!, '0x00000000000000000000000000000000000000d1', { name: 'bot' })]);
    const page = await client.get(`/desk/accounts/${addresses[1]}`);
    expect(page.body).toContain('0x00000000000000000000000000000000000000d1');
    expect(page.status).toBe(200);
    const actions = [...page.body.matchAll(/<form[^>]*method="post"[^>]*action="([^"]+)"/g)].map((m) => new URL(m[1]!).pathname);
    const account = `/desk/accounts/${addresses[1]}`;
    expect(new Set(actions)).toEqual(new Set(['/desk/sign-out', `${account}/revoke`, `${account}/revoke-all`]));
    for (const action of [`${account}/revoke`, `${account}/revoke-all`]) {
      const answer = await client.post(action, hiddenFields(page.body, action));
      expect(answer.status, action).toBe(303);
      expect(new URL(answer.headers.get('location')!).pathname, action).toBe(action.endsWith('-all') ? '/revoke-all' : '/revoke');
    }
  });
});
