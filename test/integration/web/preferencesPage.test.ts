import { describe, expect, it } from 'vitest';
import { sesStore } from '../../support/sesStore';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { CsrfTokens } from '../../../functions/web/csrfToken';
import { formOf, getPage, HOUR, LINK_SECRET, revocationWorld, submitForm, titleOf } from '../../support/revocation/revocationWorld';

const world = revocationWorld();

const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
let n = 0;
const email = () => `prefs+${++n}-${Date.now()}@example.com`;

function unsubscribeLink(address: string, now = Date.now(), category: 'reports' | 'drawdown' | 'expiry' | 'none' = 'drawdown'): string {
  return world.links.build({ purpose: 'unsubscribe', account: ACCOUNT, email: address, ...(category === 'none' ? {} : { category }) }, now);
}

function preferencesLink(address: string, now = Date.now()): string {
  return world.links.build({ purpose: 'preferences', account: ACCOUNT, email: address }, now);
}

/** An RFC 8058 one-click unsubscribe POST to `url`, as a mail client sends it (no Origin, no form token). */
function oneClick(url: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
}

/** The preferences form's hidden fields (token, csrf) and which categories are ticked. */
function preferencesForm(html: string): { fields: Record<string, string>; receiving: string[] } {
  const form = formOf({ status: 200, headers: new Headers(), html });
  const receiving = [...html.matchAll(/<input type="checkbox" name="receive" value="([a-z]+)"( checked)?>/g)].filter((m) => m[2]).map((m) => m[1] ?? '');
  return { fields: form.fields, receiving };
}

async function postPreferences(fields: Record<string, string>, receive: string[], extra: Record<string, string> = {}, headers?: Record<string, string>) {
  const body = new URLSearchParams({ ...fields, ...extra });
  for (const category of receive) body.append('receive', category);
  const res = await fetch(`${world.server.url}/preferences`, {
    method: 'POST',
    headers: headers ?? { 'content-type': 'application/x-www-form-urlencoded', origin: world.server.url, 'sec-fetch-site': 'same-origin' },
    body: body.toString(),
  });
  return { status: res.status, html: await res.text() };
}

describe('unsubscribe', () => {
  it('GET shows a button and changes nothing; the form POST stops that one category, not all mail', async () => {
    const address = email();
    const page = await getPage(unsubscribeLink(address));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self'/);
    expect(page.html).toContain(address);
    expect(page.html).toContain('drawdown alerts');
    // An unsubscribe page mints no preferences link: a leaked unsubscribe URL stops one category, nothing more.
    expect(page.html).not.toContain('/preferences?token=');
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);

    const form = formOf(page);
    expect(form.action).toBe(`${world.server.url}/unsubscribe`);
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(titleOf(done)).toBe('You are unsubscribed');
    expect(done.html).not.toContain('/preferences?token=');
    expect(await world.repos.preferences.optOuts(address)).toEqual(['drawdown']);
    expect(await world.repos.suppressions.isSuppressed(address)).toBe(false);
    // Idempotent: the same link again is still a success.
    expect((await submitForm(form.action, form.fields)).status).toBe(200);
    expect(await world.repos.preferences.optOuts(address)).toEqual(['drawdown']);
  });

  it('a link from before categories stops everything but security notices', async () => {
    const address = email();
    const form = formOf(await getPage(unsubscribeLink(address, Date.now(), 'none')));
    expect((await submitForm(form.action, form.fields)).status).toBe(200);
    expect(await world.repos.preferences.optOuts(address)).toEqual(['reports', 'drawdown', 'expiry']);
  });

  it('no unsubscribe link can stop security notices: a token naming that category is refused', async () => {
    const address = email();
    const forged = new LinkTokenCodec(LINK_SECRET).sign('unsubscribe', {
      purpose: 'unsubscribe',
      account: ACCOUNT,
      email: address,
      category: 'security',
      tokenId: 'AbCdEfGhIjKlMnOp_-12',
      expiresAt: Date.now() + HOUR,
    });
    expect((await oneClick(`${world.server.url}/unsubscribe?token=${encodeURIComponent(forged)}`)).status).toBe(400);
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);
  });

  it('accepts an RFC 8058 one-click POST to the List-Unsubscribe URL without Origin or form value', async () => {
    const address = email();
    expect((await oneClick(unsubscribeLink(address))).status).toBe(200);
    expect(await world.repos.preferences.optOuts(address)).toEqual(['drawdown']);

    const multipartAddress = email();
    const body = ['--b0undary', 'Content-Disposition: form-data; name="List-Unsubscribe"', '', 'One-Click', '--b0undary--', ''].join('\r\n');
    const multipart = await fetch(unsubscribeLink(multipartAddress), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0undary' },
      body,
    });
    expect(multipart.status).toBe(200);
    expect(await world.repos.preferences.optOuts(multipartAddress)).toEqual(['drawdown']);
  });

  it('refuses a cross-origin form POST, a form without its value, and a revoke token', async () => {
    const address = email();
    const form = formOf(await getPage(unsubscribeLink(address)));
    expect((await submitForm(form.action, form.fields, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await submitForm(form.action, { token: form.fields['token'] ?? '' })).status).toBe(403);
    const revoke = world.revokeLink(ACCOUNT, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    const token = new URL(revoke).searchParams.get('token') ?? '';
    expect((await oneClick(`${world.server.url}/unsubscribe?token=${encodeURIComponent(token)}`)).status).toBe(400);
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);
  });

  it('refuses an expired link', async () => {
    const page = await getPage(unsubscribeLink(email(), Date.now() - 366 * 24 * HOUR));
    expect(page.status).toBe(410);
  });
});

describe('preferences', () => {
  it('GET shows every category and changes nothing; POST changes them; categories can come back on', async () => {
    const address = email();
    const page = await getPage(preferencesLink(address));
    expect(page.status).toBe(200);
    expect(page.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(titleOf(page)).toBe('Email preferences');
    const form = preferencesForm(page.html);
    expect(form.receiving).toEqual(['reports', 'drawdown', 'expiry', 'security']);
    expect(Object.keys(form.fields).sort()).toEqual(['csrf', 'token']);

    const saved = await postPreferences(form.fields, ['drawdown', 'security']);
    expect(saved.status).toBe(200);
    expect(saved.html).toContain('Saved.');
    expect(await world.repos.preferences.optOuts(address)).toEqual(['reports', 'expiry']);
    expect(preferencesForm((await getPage(preferencesLink(address))).html).receiving).toEqual(['drawdown', 'security']);

    await postPreferences(form.fields, ['reports', 'drawdown', 'expiry', 'security']);
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);
  });

  it('turns security notices off only from the mailbox: the ticked box mails a confirmation link, and the mailbox is told once they stop', async () => {
    const address = email();
    const page = await getPage(preferencesLink(address));
    expect(page.html).toMatch(/Warning:<\/strong> security notices tell you when a new delegate/);
    const form = preferencesForm(page.html);

    const unconfirmed = await postPreferences(form.fields, ['reports']);
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.html).toContain('Nothing was saved');
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);

    // Box ticked: the other categories are saved, security notices stay on, the mailbox gets a link.
    const requested = await postPreferences(form.fields, ['reports'], { 'confirm-security-off': 'yes' });
    expect(requested.status).toBe(200);
    expect(requested.html).toContain('security notices are still on');
    expect(await world.repos.preferences.optOuts(address)).toEqual(['drawdown', 'expiry']);
    const [request] = await sesStore({ to: address });
    expect(request?.subject).toBe('Confirm: turn off security notices?');
    const confirmUrl = /(http:\/\/\S+\/preferences\?token=\S+)/.exec(request?.body.text ?? '')?.[1] ?? '';

    // The link from the mailbox: GET asks, POST turns them off and sends the last security notice.
    const confirm = await getPage(confirmUrl);
    expect(titleOf(confirm)).toBe('Turn security notices off?');
    expect(await world.repos.preferences.optOuts(address)).toEqual(['drawdown', 'expiry']);
    const confirmForm = formOf(confirm);
    expect((await submitForm(confirmForm.action, confirmForm.fields, { origin: 'https://evil.example' })).status).toBe(403);
    const done = await submitForm(confirmForm.action, confirmForm.fields);
    expect(titleOf(done)).toBe('Security notices are off');
    expect(await world.repos.preferences.optOuts(address)).toEqual(['drawdown', 'expiry', 'security']);
    expect((await submitForm(confirmForm.action, confirmForm.fields)).status).toBe(200);
    const mails = await sesStore({ to: address });
    expect(mails.map((m) => m.subject)).toEqual(['Confirm: turn off security notices?', 'Security notices are now off']);
    expect(mails[1]?.body.text).toContain('/preferences?token=');
  });

  it('refuses a state-changing POST without Origin, Referer or Sec-Fetch-Site (a script), whatever the form carries', async () => {
    const address = email();
    const form = preferencesForm((await getPage(preferencesLink(address))).html);
    const scripted = await postPreferences(
      form.fields,
      ['reports'],
      { 'confirm-security-off': 'yes' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(scripted.status).toBe(403);
    const unsubscribeForm = formOf(await getPage(unsubscribeLink(address)));
    expect((await submitForm(unsubscribeForm.action, unsubscribeForm.fields, {})).status).toBe(403);
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);
    expect(await sesStore({ to: address })).toEqual([]);
    // A same-origin Referer alone (no Origin, no fetch metadata) is a browser: accepted.
    expect(
      (
        await postPreferences(
          form.fields,
          ['reports', 'drawdown', 'expiry', 'security'],
          {},
          { 'content-type': 'application/x-www-form-urlencoded', referer: `${world.server.url}/preferences` },
        )
      ).status,
    ).toBe(200);
  });

  it('a link past its week offers to email a new one, to the address it names only, at most once per ten minutes', async () => {
    const address = email();
    const expired = await getPage(preferencesLink(address, Date.now() - 8 * 24 * HOUR));
    expect(expired.status).toBe(410);
    expect(titleOf(expired)).toBe('This preferences link has expired');
    const form = formOf(expired);
    expect(form.fields['action']).toBe('new-link');
    expect((await submitForm(form.action, form.fields, {})).status).toBe(403);

    const mailed = await submitForm(form.action, form.fields);
    expect(titleOf(mailed)).toBe('A new link is on its way');
    const [mail] = await sesStore({ to: address });
    expect(mail?.subject).toBe('Your email preferences link');
    const fresh = /(http:\/\/\S+\/preferences\?token=\S+)/.exec(mail?.body.text ?? '')?.[1] ?? '';
    expect(titleOf(await getPage(fresh))).toBe('Email preferences');

    expect(titleOf(await submitForm(form.action, form.fields))).toBe('A link was sent a few minutes ago');
    expect(await sesStore({ to: address })).toHaveLength(1);
  });

  it("the recipient's link epoch voids every preferences link issued before it; newer ones work", async () => {
    const address = email();
    const old = preferencesLink(address);
    const oldForm = preferencesForm((await getPage(old)).html);
    await world.repos.preferences.revokeLinks(address, Date.now());
    const revoked = await getPage(old);
    expect(revoked.status).toBe(410);
    expect(titleOf(revoked)).toBe('This preferences link was revoked');
    expect((await postPreferences(oldForm.fields, ['security'])).status).toBe(410);
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);
    const newer = await getPage(preferencesLink(address, Date.now() + 1));
    expect(titleOf(newer)).toBe('Email preferences');
  });

  it('refuses a cross-origin POST, a missing form value, and an unsubscribe token', async () => {
    const address = email();
    const form = preferencesForm((await getPage(preferencesLink(address))).html);
    const crossSite = await postPreferences(
      form.fields,
      [],
      { 'confirm-security-off': 'yes' },
      {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(crossSite.status).toBe(403);
    expect((await postPreferences({ token: form.fields['token'] ?? '' }, [], { 'confirm-security-off': 'yes' })).status).toBe(403);
    const unsubscribeToken = new URL(unsubscribeLink(address)).searchParams.get('token') ?? '';
    expect((await postPreferences({ ...form.fields, token: unsubscribeToken }, [], { 'confirm-security-off': 'yes' })).status).toBe(400);
    expect(await world.repos.preferences.optOuts(address)).toEqual([]);
  });
});

describe('snooze', () => {
  it('GET names the account and the recipient and changes nothing; POST snoozes that recipient only, once', async () => {
    const account = await world.trackAccount({ label: 'snooze', delegates: [], registerViews: false });
    const [recipient] = account.emails;
    const link = world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: 48, email: recipient! }, Date.now());
    const page = await getPage(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain('2 days');
    expect(page.html).toContain(recipient);
    expect(page.html).toContain('Other recipients still get them');
    expect(await world.repos.alerts.recipientSnoozes(account.address)).toEqual({});

    const form = formOf(page);
    const before = Date.now();
    const done = await submitForm(form.action, form.fields);
    expect(done.status).toBe(200);
    expect(titleOf(done)).toBe('Alerts snoozed for you');
    expect(done.html).toContain(`snoozed for YOU (${recipient})`);
    expect(done.html).toContain('other recipients still get them');
    expect(done.html).toContain('snooze (0x');
    const until = (await world.repos.alerts.recipientSnoozes(account.address))[recipient!.toLowerCase()];
    expect(until).toBeGreaterThanOrEqual(before + 48 * HOUR);
    expect(until).toBeLessThanOrEqual(Date.now() + 48 * HOUR);
    // Nobody else is silenced: the account-wide snooze the alert machine applies stays unset.
    expect(await world.repos.alerts.snoozedUntil(account.address)).toBeNull();

    const again = await submitForm(form.action, form.fields);
    expect(again.status).toBe(409);
    expect((await world.repos.alerts.recipientSnoozes(account.address))[recipient!.toLowerCase()]).toBe(until);
  });

  it('a shorter snooze never cuts a longer one short', async () => {
    const account = await world.trackAccount({ label: 'snooze-later', delegates: [], registerViews: false });
    const [recipient] = account.emails;
    for (const hours of [7 * 24, 24]) {
      const form = formOf(await getPage(world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: hours, email: recipient! }, Date.now())));
      expect((await submitForm(form.action, form.fields)).status).toBe(200);
    }
    expect((await world.repos.alerts.recipientSnoozes(account.address))[recipient!.toLowerCase()]).toBeGreaterThan(Date.now() + 6 * 24 * HOUR);
  });

  it('a link from before links named their recipient snoozes nothing and says so, on GET and POST', async () => {
    const account = await world.trackAccount({ label: 'snooze-old', delegates: [], registerViews: false });
    const old = world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: 24 }, Date.now());
    const page = await getPage(old);
    expect(page.status).toBe(410);
    expect(titleOf(page)).toBe('This snooze link is from an older email');
    expect(page.html).toContain('Use the snooze link in a newer alert');
    expect(page.html).not.toContain('<form');
    // A POST crafted with the old token (and a valid form value) changes nothing either.
    const tokenId = (new LinkTokenCodec(LINK_SECRET).verify('snooze', new URL(old).searchParams.get('token') ?? '') as { payload: { tokenId: string } }).payload
      .tokenId;
    const posted = await submitForm(`${world.server.url}/snooze`, {
      token: new URL(old).searchParams.get('token') ?? '',
      csrf: new CsrfTokens(LINK_SECRET).issue('snooze', tokenId),
    });
    expect(posted.status).toBe(410);
    expect(await world.repos.alerts.snoozedUntil(account.address)).toBeNull();
    expect(await world.repos.alerts.recipientSnoozes(account.address)).toEqual({});
  });

  it("refuses a link whose address no longer gets the account's alerts", async () => {
    const account = await world.trackAccount({ label: 'snooze-gone', delegates: [], registerViews: false });
    const page = await getPage(
      world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: 24, email: 'someone-else@example.com' }, Date.now()),
    );
    expect(page.status).toBe(410);
    expect(page.html).toContain('someone-else@example.com no longer gets drawdown alerts');
    expect(await world.repos.alerts.recipientSnoozes(account.address)).toEqual({});
  });

  it('refuses a cross-origin POST without consuming the link', async () => {
    const account = await world.trackAccount({ label: 'snooze-csrf', delegates: [], registerViews: false });
    const form = formOf(
      await getPage(world.links.build({ purpose: 'snooze', account: account.address, snoozeHours: 6, email: account.emails[0]! }, Date.now())),
    );
    expect((await submitForm(form.action, form.fields, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await submitForm(form.action, { token: form.fields['token'] ?? '', csrf: 'x' })).status).toBe(403);
    expect(await world.repos.alerts.recipientSnoozes(account.address)).toEqual({});
    expect((await submitForm(form.action, form.fields)).status).toBe(200);
  });
});
