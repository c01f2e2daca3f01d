import { mkdir } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailingNotifyConsumer, revocationWorld } from '../../support/revocation/revocationWorld';
import { CHROMIUM_PATH } from '../../support/screenshot';
import { sesStore, type StoredEmail } from '../../support/sesStore';
import { noticeNewDelegate } from '../../support/revocation/noticeNewDelegate';

const ARTIFACTS = 'test-artifacts/revocation';
const world = revocationWorld({ notifyConsumer: mailingNotifyConsumer() });
let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  await mkdir(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

async function mailTo(recipient: string, subject: RegExp): Promise<StoredEmail> {
  const found = (await sesStore({ to: recipient })).filter((m) => subject.test(m.subject));
  expect(found, `mail to ${recipient} matching ${subject}`).toHaveLength(1);
  return found[0]!;
}

/** Decodes the character references Handlebars writes into attribute values (`&#x3D;`, `&amp;`). */
function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('one-click revocation in a browser', () => {
  it('from the new-delegate email to the revoked delegate and the confirmation email', async () => {
    const account = await world.trackAccount({ label: 'Main trading', delegates: ['mystery-bot'] });
    const delegate = account.delegates[0]!;
    const recipient = account.emails[0]!;

    // Collection noticed a delegate nobody expected: the notify path sends the security notice.
    await noticeNewDelegate(world, account.address, delegate.address);
    const notice = await mailTo(recipient, /^New API key “mystery-bot”/);
    const hrefs = [...(notice.body.html ?? '').matchAll(/href="([^"]+)"/g)].map((m) => decodeEntities(m[1]!));
    const link = hrefs.find((h) => h.startsWith(`${world.server.url}/revoke?token=`));
    expect(link, 'revoke link in the email').toBeDefined();

    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 760, height: 900 } });
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const posted: Record<string, string>[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posted.push(request.headers());
    });

    const confirmation = await page.goto(link!);
    expect(confirmation?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Revoke this API key?');
    expect(await page.locator('dl').textContent()).toContain('mystery-bot');
    await page.screenshot({ path: `${ARTIFACTS}/confirm.png`, fullPage: true });
    expect((await world.control.account(account.address)).delegates.map((d) => d.address)).toContain(delegate.address);

    const [result] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Revoke this API key' }).click()]);
    expect(result?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('API key revoked');
    await page.screenshot({ path: `${ARTIFACTS}/revoked.png`, fullPage: true });
    expect(posted).toHaveLength(1);
    expect(posted[0]?.['content-type']).toBe('application/x-www-form-urlencoded');
    expect(cspViolations).toEqual([]);

    expect((await world.control.account(account.address)).delegates).toEqual([]);

    await world.notify.drain();
    const confirmationMail = await mailTo(recipient, /revoked/i);
    expect(confirmationMail.body.text).toContain(delegate.address);

    // The same link again, as a second click from the email would be: it says at once what happened, with nothing to press.
    const again = await page.goto(link!);
    expect(again?.status()).toBe(409);
    expect(await page.locator('h1').textContent()).toBe('This link was used: the API key was revoked');
    expect(await page.getByRole('button', { name: 'Revoke this API key' }).count()).toBe(0);
    await context.close();
  });
});
