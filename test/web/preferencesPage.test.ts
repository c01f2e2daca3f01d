import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTables } from '../support/testTables';
import { formOf, getPage, HOUR, startRevocationWorld, submitForm, titleOf, type RevocationWorld } from '../revocation/support/revocationWorld';

const tables = testTables();
let world: RevocationWorld;

beforeAll(async () => {
  world = await startRevocationWorld(tables);
});
afterAll(async () => {
  await world?.close();
});

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
let n = 0;
const email = () => `prefs+${++n}-${Date.now()}@example.com`;

function unsubscribeLink(address: string, now = Date.now()): string {
  return world.links.build({ purpose: 'unsubscribe', account: ACCOUNT, email: address }, now);
}

describe('unsubscribe', () => {
  it('GET shows a button and changes nothing; the form POST suppresses the address', async () => {
    const address = email();
    const page = await getPage(unsubscribeLink(address));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self'/);
    expect(page.html).toContain(address);
    expect(await world.repos.suppressions.isSuppressed(address)).toBe(false);

    const form = formOf(page);
    expect(form.action).toBe(`${world.server.url}/unsubscribe`);
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(titleOf(done)).toBe('You are unsubscribed');
    expect(await world.repos.suppressions.isSuppressed(address)).toBe(true);
    // Idempotent: the same link again is still a success.
    expect((await submitForm(form.action, form.fields)).status).toBe(200);
  });

  it('accepts an RFC 8058 one-click POST to the List-Unsubscribe URL without Origin or form value', async () => {
    const address = email();
    const link = unsubscribeLink(address);
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await world.repos.suppressions.isSuppressed(address)).toBe(true);

    const multipartAddress = email();
    const body = ['--b0undary', 'Content-Disposition: form-data; name="List-Unsubscribe"', '', 'One-Click', '--b0undary--', ''].join('\r\n');
    const multipart = await fetch(unsubscribeLink(multipartAddress), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0undary' },
      body,
    });
    expect(multipart.status).toBe(200);
    expect(await world.repos.suppressions.isSuppressed(multipartAddress)).toBe(true);
  });

  it('refuses a cross-origin form POST, a form without its value, and a revoke token', async () => {
    const address = email();
    const form = formOf(await getPage(unsubscribeLink(address)));
    expect((await submitForm(form.action, form.fields, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await submitForm(form.action, { token: form.fields['token'] ?? '' })).status).toBe(403);
    const revoke = world.revokeLink(ACCOUNT, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    const token = new URL(revoke).searchParams.get('token') ?? '';
    const oneClickWithRevokeToken = await fetch(`${world.server.url}/unsubscribe?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClickWithRevokeToken.status).toBe(400);
    expect(await world.repos.suppressions.isSuppressed(address)).toBe(false);
  });

  it('refuses an expired link', async () => {
    const page = await getPage(unsubscribeLink(email(), Date.now() - 366 * 24 * HOUR));
    expect(page.status).toBe(410);
  });
});

describe('snooze', () => {
  it('GET shows the duration and changes nothing; POST snoozes once', async () => {
    const account = await world.trackAccount({ label: 'snooze', delegates: [], registerViews: false });
    const link = world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: 48 }, Date.now());
    const page = await getPage(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('2 days');
    expect(await world.repos.alerts.snoozedUntil(account.address)).toBeNull();

    const form = formOf(page);
    const before = Date.now();
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(titleOf(done)).toBe('Alerts snoozed');
    const until = await world.repos.alerts.snoozedUntil(account.address);
    expect(until).toBeGreaterThanOrEqual(before + 48 * HOUR);
    expect(until).toBeLessThanOrEqual(Date.now() + 48 * HOUR);

    const again = await submitForm(form.action, form.fields);
    expect(again.status).toBe(409);
    expect(await world.repos.alerts.snoozedUntil(account.address)).toBe(until);
  });

  it('refuses a cross-origin POST without consuming the link', async () => {
    const account = await world.trackAccount({ label: 'snooze-csrf', delegates: [], registerViews: false });
    const form = formOf(await getPage(world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: 6 }, Date.now())));
    expect((await submitForm(form.action, form.fields, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await submitForm(form.action, { token: form.fields['token'] ?? '', csrf: 'x' })).status).toBe(403);
    expect(await world.repos.alerts.snoozedUntil(account.address)).toBeNull();
    expect((await submitForm(form.action, form.fields)).status).toBe(200);
  });
});
