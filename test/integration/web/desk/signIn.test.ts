import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../../../functions/services/desk/requestSignIn';
import { deskClient, hiddenFields, signIn, startDeskWorld, type DeskWorld } from '../../../support/desk/deskWorld';
import { sesStore } from '../../../support/sesStore';
import { unescapeHtml } from '../../../support/htmlText';
import { testTables } from '../../../support/testTables';

const tables = testTables();
let world: DeskWorld;
const run = Math.random().toString(36).slice(2, 8);
const alice = `alice-${run}@example.com`;
const bob = `bob-${run}@example.com`;

beforeAll(async () => {
  world = await startDeskWorld(tables);
  await world.addAccount(1, { emails: [alice], label: 'alpha' });
  await world.addAccount(2, { emails: [bob], label: 'bravo' });
  await world.addAccount(3, { emails: [alice, bob], label: 'shared' });
});
afterAll(() => world?.close());

async function mailTo(email: string): Promise<string[]> {
  return (await sesStore({ to: email })).map((m) => m.body.text ?? '');
}

describe('asking for a sign-in link', () => {
  it('mails a recipient a link and tells a stranger the very same, mailing nothing', async () => {
    const client = deskClient(world);
    const form = await client.get('/desk/sign-in');
    expect(form.status).toBe(200);
    expect(form.body).toContain('Email me a sign-in link');
    const forRecipient = await client.post('/desk/sign-in', { email: alice.toUpperCase() });
    const stranger = `nobody-${run}@example.com`;
    const forStranger = await client.post('/desk/sign-in', { email: stranger });
    expect(forRecipient.status).toBe(200);
    expect(forStranger.status).toBe(200);
    expect(forStranger.body).toBe(forRecipient.body);
    expect(forRecipient.body).toContain('If this address receives reports from Portfolio Sentinel, a sign-in link is on its way.');
    expect(forRecipient.headers.get('set-cookie')).toBeNull();

    const mails = await mailTo(alice);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(new RegExp(`${world.server.url}/desk/sign-in\\?token=v2\\.`));
    expect(await mailTo(stranger)).toEqual([]);
  });

  it('refuses a form from another site and answers a malformed address with the form', async () => {
    const client = deskClient(world);
    const cross = await client.post('/desk/sign-in', { email: alice }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
    const malformed = await client.post('/desk/sign-in', { email: 'not-an-address' });
    expect(malformed.status).toBe(200);
    expect(malformed.body).toContain('Enter an email address');
  });
});

describe('signing in with the emailed link', () => {
  it('shows a button on GET (nothing consumed), signs in once on POST with a strict, HttpOnly cookie', async () => {
    const client = deskClient(world);
    const link = world.signInLink(alice);
    const first = await client.get(link);
    const again = await client.get(link);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(first.body).toContain(`You are signing in as <strong>${alice}</strong>`);
    expect(first.headers.get('set-cookie')).toBeNull();

    const signedIn = await client.post('/desk/sign-in', hiddenFields(first.body, '/desk/sign-in'));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(`${world.server.url}/desk`);
    const setCookie = signedIn.headers.get('set-cookie') ?? '';
    // Plain HTTP on a loopback address: no `Secure`, so no `__Host-` prefix (a browser would refuse both).
    expect(setCookie).toMatch(/^sentinel-desk=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/);

    const overview = await client.get('/desk');
    expect(overview.status).toBe(200);
    const addresses = [...overview.body.matchAll(/<a href="[^"]*\/desk\/accounts\/(0x[0-9A-Fa-f]{40})"/g)].map((m) => m[1]);
    const own = (await world.repos.accounts.list()).filter((a) => a.emails.includes(alice)).map((a) => a.address);
    expect(new Set(addresses)).toEqual(new Set(own));
    expect(own).toHaveLength(2);
    // Signed in as alice, a link for bob says whose session it replaces in this browser; one for alice, that she is signed in already.
    expect(first.body).not.toContain('This browser is');
    expect((await client.get(world.signInLink(bob))).body).toContain(
      `This browser is signed in as <strong>${alice}</strong> now. Pressing the button signs it in as ${bob} instead.`,
    );
    expect((await client.get(world.signInLink(alice))).body).toContain(`This browser is already signed in as ${alice}`);

    const reused = await deskClient(world).post('/desk/sign-in', hiddenFields(first.body, '/desk/sign-in'));
    expect(reused.status).toBe(409);
    expect(reused.headers.get('set-cookie')).toBeNull();
    // Opened again once used, the link says so at once (as a used revoke link does), with no button to press.
    for (const answer of [await deskClient(world).get(link), reused]) {
      expect(answer.status).toBe(409);
      expect(answer.body).toContain('<h1>This sign-in link was used</h1>');
      expect(answer.body).toMatch(/It was used \w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/);
      expect(answer.body).not.toContain('name="token"');
    }
  });

  it('refuses an altered form, another origin, an expired link and a link sent before the sessions were ended', async () => {
    const client = deskClient(world);
    const page = await client.get(world.signInLink(alice));
    const fields = hiddenFields(page.body, '/desk/sign-in');
    expect((await client.post('/desk/sign-in', { ...fields, csrf: 'A'.repeat(43) })).status).toBe(403);
    expect((await client.post('/desk/sign-in', fields, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.post('/desk/sign-in', fields, {})).status).toBe(403);
    expect(client.cookie()).toBeNull();

    const expired = await client.get(world.signInLink(alice, Date.now() - 16 * 60_000));
    expect(expired.status).toBe(410);

    const before = await client.get(world.signInLink(bob, Date.now() - 1_000));
    await world.repos.deskRecipients.revokeSessions(bob, Date.now());
    expect((await client.post('/desk/sign-in', hiddenFields(before.body, '/desk/sign-in'))).status).toBe(410);
    // A link sent afterwards works.
    expect((await signIn(world, client, bob)).status).toBe(303);
  });
});

describe('a session', () => {
  it('sees only its accounts: any other answers 404, pages and API alike; without a session, the sign-in page or 401', async () => {
    const client = deskClient(world);
    await signIn(world, client, bob);
    const aliceOnly = (await world.repos.accounts.list()).find((a) => a.emails.length === 1 && a.emails[0] === alice)!;
    expect((await client.get(`/desk/accounts/${aliceOnly.address}`)).status).toBe(404);
    const api = await client.get(`/desk/api/accounts/${aliceOnly.address}/series?window=7d`);
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toEqual({ error: 'not found' });
    // The paged sections (alert history, deliveries), with the "Older" cursors alice's own page carries: 404 as well.
    const at = Date.now() - 60_000;
    await world.repos.history.recordAlerts(
      aliceOnly.address,
      Array.from(
        { length: 30 },
        (_, i) => ({ kind: 'snoozed', scope: { kind: 'recipient', email: alice }, by: 'alice-secret-marker', until: at + 3_600_000, at: at + i }) as const,
      ),
    );
    for (let i = 0; i < 30; i++)
      await world.repos.history.recordDelivery(aliceOnly.address, {
        via: 'email',
        to: alice,
        what: 'drawdown-alert',
        outcome: 'sent',
        reason: null,
        at: at + i,
        eventId: `e${i}`,
      });
    const owner = deskClient(world);
    await signIn(world, owner, alice);
    const own = await owner.get(`/desk/accounts/${aliceOnly.address}`);
    const older = [...own.body.matchAll(/href="([^"]+)" rel="next">Older/g)].map((m) => unescapeHtml(m[1] ?? ''));
    expect(older).toHaveLength(2);
    for (const url of older) {
      expect((await owner.get(url)).status, url).toBe(200);
      const answer = await client.get(url);
      expect(answer.status, url).toBe(404);
      expect(answer.body).not.toContain('alice-secret-marker');
      expect(answer.body).not.toContain(alice);
    }

    const anonymous = deskClient(world);
    const page = await anonymous.get('/desk');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${world.server.url}/desk/sign-in`);
    expect((await anonymous.get(`/desk/api/accounts/${aliceOnly.address}/series`)).status).toBe(401);
  });

  it('ends on "Sign out" (the cookie no longer works) and everywhere on "Sign out everywhere"', async () => {
    const laptop = deskClient(world);
    const phone = deskClient(world);
    await signIn(world, laptop, alice);
    await signIn(world, phone, alice);
    const kept = laptop.cookie();

    const overview = await laptop.get('/desk');
    const out = await laptop.post('/desk/sign-out', hiddenFields(overview.body, '/desk/sign-out'));
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(`${world.server.url}/desk/sign-in?notice=signed-out`);
    expect(out.headers.get('set-cookie')).toMatch(/^sentinel-desk=; Path=\/; Max-Age=0/);
    laptop.setCookie(kept);
    expect((await laptop.get('/desk')).headers.get('location')).toBe(`${world.server.url}/desk/sign-in`);
    expect((await phone.get('/desk')).status).toBe(200);

    const tablet = deskClient(world);
    await signIn(world, tablet, alice);
    const page = await tablet.get('/desk');
    const fields = { ...hiddenFields(page.body, '/desk/sign-out') };
    expect((await tablet.post('/desk/sign-out', { ...fields, csrf: 'x' })).status).toBe(403);
    const everywhere = await tablet.post('/desk/sign-out', { ...fields, everywhere: '1' });
    expect(everywhere.headers.get('location')).toBe(`${world.server.url}/desk/sign-in?notice=signed-out-everywhere`);
    expect((await phone.get('/desk')).status).toBe(303);
  });

  it('of a recipient removed from every account ends at its next overview', async () => {
    const carol = `carol-${run}@example.com`;
    const account = await world.addAccount(4, { emails: [carol] });
    const client = deskClient(world);
    await signIn(world, client, carol);
    expect((await client.get('/desk')).status).toBe(200);
    await world.repos.accounts.updateSettings(account.address, { emails: [`dave-${run}@example.com`] });
    const next = await client.get('/desk');
    expect(next.headers.get('location')).toBe(`${world.server.url}/desk/sign-in?notice=no-access`);
    expect((await client.get(`/desk/accounts/${account.address}`)).status).toBe(303);
  });
});

describe('returning to the page asked for', () => {
  it('signs in by the emailed link onto the page that asked for the sign-in, never off the desk', async () => {
    const carol = `carol-${run}@example.com`;
    const account = await world.addAccount(6, { emails: [carol], label: 'charlie' });
    const page = `/desk/accounts/${account.address}`;
    const client = deskClient(world);
    const asked = await client.get(page);
    expect(asked.status).toBe(303);
    const signInAt = asked.headers.get('location') ?? '';
    expect(signInAt).toBe(`${world.server.url}/desk/sign-in?next=${encodeURIComponent(page)}`);
    const form = await client.get(signInAt);
    expect(hiddenFields(form.body, '/desk/sign-in')).toEqual({ next: page });

    await client.post('/desk/sign-in', { email: carol, next: page });
    const mailed = (await mailTo(carol)).join('\n').match(/https?:\/\/\S+\/desk\/sign-in\?token=[A-Za-z0-9._~-]+/g) ?? [];
    expect(mailed).toHaveLength(1);
    const link = await client.get(mailed[0]!);
    const signedIn = await client.post('/desk/sign-in', hiddenFields(link.body, '/desk/sign-in'));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(`${world.server.url}${page}`);
    const shown = await client.get(signedIn.headers.get('location')!);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('charlie');

    // A page elsewhere, or one a browser would resolve off the desk, is never carried: the link lands on the overview.
    for (const next of ['//evil.example/desk', 'https://evil.example/', '/desk/../revoke', '/desk/sign-out']) {
      const other = deskClient(world);
      const form = await other.get(`/desk/sign-in?next=${encodeURIComponent(next)}`);
      expect(hiddenFields(form.body, '/desk/sign-in'), next).toEqual({});
    }
    const forged = deskClient(world);
    await forged.post('/desk/sign-in', { email: carol, next: '//evil.example/desk' });
    const [second] =
      (await mailTo(carol))
        .join('\n')
        .match(/https?:\/\/\S+\/desk\/sign-in\?token=[A-Za-z0-9._~-]+/g)
        ?.filter((l) => l !== mailed[0]) ?? [];
    expect(second).toBeDefined();
    const landed = await forged.post('/desk/sign-in', hiddenFields((await forged.get(second!)).body, '/desk/sign-in'));
    expect(landed.headers.get('location')).toBe(`${world.server.url}/desk`);
  });
});

describe('rate limits', () => {
  it('mail an address at most its limit per window, and answer a client over its limit 429', async () => {
    // A clock of its own, at the start of a window: every request below falls in it.
    const window = Math.ceil(Date.now() / SIGN_IN_LIMITS.windowMs) * SIGN_IN_LIMITS.windowMs + 5 * SIGN_IN_LIMITS.windowMs;
    const limited = await startDeskWorld(tables, { now: () => window + 1_000 });
    try {
      const client = deskClient(limited);
      const target = `erin-${run}@example.com`;
      await limited.addAccount(5, { emails: [target] });
      const answers: number[] = [];
      for (let i = 0; i < SIGN_IN_LIMITS.perClient + 1; i++) {
        answers.push((await client.post('/desk/sign-in', { email: i < SIGN_IN_LIMITS.perAddress + 2 ? target : `x${i}-${run}@example.com` })).status);
      }
      expect(answers.slice(0, SIGN_IN_LIMITS.perClient)).toEqual(Array(SIGN_IN_LIMITS.perClient).fill(200));
      expect(answers[SIGN_IN_LIMITS.perClient]).toBe(429);
      expect(await mailTo(target)).toHaveLength(SIGN_IN_LIMITS.perAddress);
    } finally {
      await limited.close();
    }
  });
});
