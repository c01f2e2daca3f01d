import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deskAssetsOf } from '../../../../functions/web/desk/deskAssets';
import { buildDeskClient } from '../../../../infra/bundling/deskClient';
import { deskClient, signIn, startDeskWorld, type DeskWorld } from '../../../support/desk/deskWorld';
import { testTables } from '../../../support/testTables';

const tables = testTables();
const built = buildDeskClient();
const assets = deskAssetsOf(built);
let world: DeskWorld;
const email = `assets-${Math.random().toString(36).slice(2, 8)}@example.com`;

beforeAll(async () => {
  world = await startDeskWorld(tables, { assets });
});
afterAll(() => world?.close());

describe('the desk client on the pages', () => {
  it('is loaded from hashed same-origin files only, never inline, under a CSP without unsafe-inline', async () => {
    const account = await world.addAccount(1, { emails: [email] });
    const client = deskClient(world);
    await signIn(world, client, email);
    const page = await client.get(`/desk/accounts/${account.address}`);
    expect(page.status).toBe(200);
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(scripts).toEqual([` src="${world.server.url}/desk/assets/${assets.fileOf('chart.js')}" defer`]);
    // The chart's stylesheet after the content, so it never holds back the first paint.
    const head = page.body.slice(0, page.body.indexOf('</head>'));
    expect(head).not.toContain('<link rel="stylesheet"');
    expect(page.body.slice(page.body.indexOf('</main>'))).toContain(
      `<link rel="stylesheet" href="${world.server.url}/desk/assets/${assets.fileOf('chart.css')}">`,
    );
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers.get('cache-control')).toBe('no-store');

    // A passkey belongs to a domain name: on 127.0.0.1 the sign-in page offers none, and loads no script.
    const signInPage = await deskClient(world).get('/desk/sign-in');
    expect(signInPage.body).not.toContain('<script');
    expect(signInPage.body).not.toContain('passkey-sign-in');
  });

  it('serves each file with immutable cache headers to anyone, and nothing else under /desk/assets', async () => {
    const anonymous = deskClient(world);
    for (const entry of ['chart.js', 'chart.css', 'passkeys.js'] as const) {
      const file = await anonymous.get(`/desk/assets/${assets.fileOf(entry)}`);
      expect(file.status, entry).toBe(200);
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(file.headers.get('content-type')).toBe(entry.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.body).toBe(built[entry]);
    }
    expect((await anonymous.get('/desk/assets/chart.000000000000.js')).status).toBe(404);
    expect((await anonymous.get('/desk/assets/chart.js')).status).toBe(404);
  });
});
