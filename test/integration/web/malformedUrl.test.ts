import { describe, expect, it } from 'vitest';
import { deskClient, signIn, startDeskWorld } from '../../support/desk/deskWorld';
import { servedSystemPerFile } from '../../support/local/servedSystemPerFile';
import { testTables } from '../../support/testTables';

/** Paths and queries with a percent-escape that decodes to nothing (`%` alone, a cut-off or invalid UTF-8 sequence). */
const MALFORMED = [
  '/desk/%E0%A4%A',
  '/desk/accounts/%E0%A4%A',
  '/desk/accounts/%E0%A4%A/revoke',
  '/desk/api/accounts/%ZZ/series',
  '/desk?x=%',
  '/desk/accounts?window=%E0%A4%A',
  '/revoke?token=%',
  '/revoke/%C0',
  '/revoke-all?token=%E0%A4%A',
  '/preferences?token=%',
  '/unsubscribe?token=%E0%A4%A',
  '/snooze?token=%FF',
  '/desk/sign-in?token=%',
  '/desk/sign-in?return=%E0%A4%A',
  '/desk/sign-in/%zz',
  '/desk/sign-out?x=%zz',
  '/desk/alerts?notice=%zz',
  '/desk/alerts/lift?x=%',
  '/desk/channels?test=%zz',
  '/desk/channels/test?x=%',
  '/desk/passkeys?x=%zz',
  '/desk/passkeys/remove?x=%',
  '/desk/assets/%zz',
  '/desk/api/passkeys/register/options?x=%',
  '/desk/accounts/%zz/revoke-all',
  '/desk/accounts/0x%zz?alerts=%',
  '/preferences/%zz',
  '/revoke-all/%E0',
  '/desk/revoke?token=%zz',
] as const;

describe('a URL with a malformed percent-escape', () => {
  const { serving } = servedSystemPerFile();

  for (const path of MALFORMED) {
    for (const method of ['GET', 'POST'] as const) {
      it(`${method} ${path} is answered 400 with a page saying the link is malformed, never a 500`, async () => {
        const response = await fetch(`${serving.url}${path}`, {
          method,
          redirect: 'manual',
          ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: serving.url }, body: 'x=1' } : {}),
        });
        const body = await response.text();
        expect(response.status, body).toBe(400);
        expect(body).toMatch(/malformed/i);
        expect(body).not.toMatch(/URIError|at .*\.ts:\d+/);
      });
    }
  }
});

describe('a malformed percent-escape on the desk of a signed-in recipient', () => {
  const tables = testTables();

  it('is answered 400 on every desk route that reads the path, never a 500', async () => {
    const world = await startDeskWorld(tables);
    try {
      const client = deskClient(world);
      const email = `malformed-${Math.random().toString(36).slice(2, 8)}@example.com`;
      await world.addAccount(1, { emails: [email] });
      expect((await signIn(world, client, email)).status).toBe(303);
      for (const path of ['/desk/accounts/%E0%A4%A', '/desk/api/accounts/%E0%A4%A/series', '/desk?window=%']) {
        const page = await client.get(path);
        expect(page.status, `${path}: ${page.body}`).toBe(400);
        expect(page.body).toMatch(/malformed/i);
      }
      const revoke = await client.post('/desk/accounts/%E0%A4%A/revoke', { delegate: '0x0' });
      expect(revoke.status, revoke.body).toBe(400);
    } finally {
      await world.close();
    }
  });
});
