import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStatus } from '../../../../functions/services/status/accountStatus';
import { localDeskAssets } from '../../../../local/localDesk';
import { CALM, pipelineHarness } from '../../../support/collect/pipelineHarness';
import { deskRoute, startDeskWorld, type DeskWorld } from '../../../support/desk/deskWorld';
import { revocationWorld } from '../../../support/revocation/revocationWorld';
import { seriousViolations } from '../../../support/desk/deskAxe';
import { DESK_WIDTHS, fitsEveryWidth, fitsWidth } from '../../../support/desk/deskFits';
import { watchDelegates } from '../../../../functions/services/collect/watchDelegates';
import { launchChromium } from '../../../support/screenshot';
import { sesStore } from '../../../support/sesStore';
import { formatTime } from '../../../../functions/mail/render/format';
import { refusedUnit } from '../../../../functions/domain/decisionUnit';
import { recordDeskSummary } from '../../../../functions/services/desk/recordDeskSummary';
import { recordLatestUnknownKeyDecision } from '../../../../functions/store/unknownKeyDecisionItem';
import { testAddress } from '../../../support/store/accountFixture';

const HOUR = 3_600_000;
/** Screenshots go here; `DESK_DOC_IMAGES=1` writes them into `docs/images/` (the README's). */
const SHOTS = process.env['DESK_DOC_IMAGES'] === '1' ? 'docs/images' : 'test-artifacts/desk';

const h = pipelineHarness({ seed: 36 });
const run = Math.random().toString(36).slice(2, 8);
const trader = `trader-${run}@example.com`;
const stranger = `stranger-${run}@example.com`;
let world: DeskWorld;
let browser: Browser;
const own: string[] = [];
let other = '';

/**
 * The desk page in headless Chromium: one browser and one running system (chain simulator, the
 * real collect pipeline over DynamoDB Local, local SES, the desk page with its built client) for
 * every test of the file; each test has its own browser context (its own cookies). The desk is
 * served at http://localhost:<port>, a secure context with a domain name, so passkeys work.
 */
beforeAll(async () => {
  for (const [label, email] of [
    ['main', trader],
    ['hedge', trader],
    ['elsewhere', stranger],
  ] as const) {
    const created = await h.track(`${label}-${run}`, { email, label, drawdown: '2,5,10', interval: '1h' }, CALM);
    if (email === trader) own.push(created.address);
    else other = created.address;
  }
  await h.pipeline.runCycle({ kind: 'due' });
  await h.control.drawdown(own[0]!, { pct: 3 });
  for (let i = 0; i < 6; i++) {
    await h.advance(HOUR);
    await h.pipeline.runCycle({ kind: 'due' });
  }
  // A key nobody announced on `hedge`, its revocation refused: the overview's unknown-key line, checked with the rest.
  const hedge = (await h.repos.accounts.get(own[1]!))!;
  const intruder = testAddress(7, 0x36);
  const decisionId = `browser-unknown-${run}-000000`;
  await h.repos.decisions.put({
    decisionId,
    account: hedge.address,
    rule: 'unknown-delegate',
    reason: 'unknown delegate',
    evidence: { delegate: intruder, judgedAgain: true },
    delegates: [intruder],
    createdAt: h.now(),
    dryRun: false,
  });
  await h.repos.decisions.finishUnit(decisionId, intruder, refusedUnit({ code: 'breaker-open', text: 'the breaker was open' }, null));
  await recordLatestUnknownKeyDecision(h.repos.alerts, hedge.address, { decisionId, at: h.now() });
  await recordDeskSummary(h.repos, hedge, h.now());
  world = await startDeskWorld(h.tables, {
    repos: h.repos,
    now: h.now,
    assets: localDeskAssets(),
    baseUrl: (url) => url.replace('127.0.0.1', 'localhost'),
  });
  browser = await launchChromium();
  await mkdir(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const base = () => world.baseUrl;

/** A browser context of a reader in New York: the accounts are in UTC, and every time on the page is written in the account's zone. */
async function newPage(width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, timezoneId: 'America/New_York' });
  return { context, page: await context.newPage() };
}

/** Asks for a link on the sign-in page of the desk at `at`, opens it from the local SES inbox, and presses its one button. */
async function signInByEmail(page: Page, email: string, at = base()): Promise<void> {
  const before = (await sesStore({ to: email })).length;
  await page.goto(`${at}/desk/sign-in`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  const mails = await sesStore({ to: email });
  expect(mails).toHaveLength(before + 1);
  const link = /(http:\/\/\S+\/desk\/sign-in\?token=\S+)/.exec(mails.at(-1)?.body.text ?? '')?.[1];
  expect(link).toBeDefined();
  await page.goto(link!);
  await expect(page.locator('main button').count()).resolves.toBe(1);
  await Promise.all([page.waitForURL(`${at}/desk`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
}

/** The page fits each width (`fitsWidth`), and is shot there, full length, into `SHOTS/desk-<name>-<width>.png`. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of DESK_WIDTHS) {
    await fitsWidth(page, name, width);
    await page.screenshot({ path: join(SHOTS, `desk-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('the desk page in Chromium', () => {
  it('signs in through the emailed link and its one button; lists exactly the viewer accounts; draws the chart; 404 elsewhere; signs out', async () => {
    const { context, page } = await newPage();
    try {
      await page.goto(`${base()}/desk/sign-in`);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshots(page, 'sign-in');

      await signInByEmail(page, trader);
      const hrefs = await page.locator('a[href*="/desk/accounts/0x"]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
      const addresses = new Set(hrefs.map((href) => /0x[0-9a-fA-F]{40}/.exec(href)?.[0]));
      expect(addresses).toEqual(new Set(own));
      await expect(page.getByRole('link', { name: /^Unknown key 0x[0-9a-fA-F]{40}: NOT revoked, refused at .*revoke it yourself$/ }).count()).resolves.toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshots(page, 'overview');

      const main = own[0]!;
      await Promise.all([page.waitForURL(`${base()}/desk/accounts/${main}`), page.locator(`a[href$="/desk/accounts/${main}"]`).first().click()]);
      const chart = page.locator('#desk-chart[data-rendered="true"]');
      await chart.waitFor();
      const account = (await h.repos.accounts.get(main))!;
      const stored = await h.repos.curves.queryRange(main, account.interval, h.now() - 30 * 24 * HOUR, h.now());
      expect(Number(await chart.getAttribute('data-rendered-points'))).toBe(stored.length);
      expect(await page.locator('#desk-chart canvas').count()).toBeGreaterThanOrEqual(2);
      // The crosshair at the newest point reads its time in the account's zone, as the page writes it, not the browser's.
      const series = await page.evaluate(async (url) => (await (await fetch(url)).json()) as { t: number[] }, (await chart.getAttribute('data-series'))!);
      const plot = page.locator('#desk-chart .u-over').first();
      const box = (await plot.boundingBox())!;
      await plot.hover({ position: { x: box.width / 2, y: box.height / 2 } });
      await plot.hover({ position: { x: box.width - 1, y: box.height / 2 } });
      const crosshair = page.locator('#desk-chart .u-legend').first().locator('.u-series').first().locator('.u-value');
      await expect.poll(() => crosshair.textContent()).toBe(formatTime(series.t.at(-1)! * 1000, account.timezone));
      expect(account.timezone).toBe('UTC');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshots(page, 'account');

      await page.goto(`${base()}/desk/accounts/${main}?window=all`);
      await chart.waitFor();
      const status = (await accountStatus(h.repos, main, h.now()))!;
      expect(status.drawdown!.maxPct).toBeGreaterThan(1);
      expect(Number(await chart.getAttribute('data-deepest'))).toBeCloseTo(status.drawdown!.maxPct, 8);
      // A day's figures, from the calendar (the newest day, the one with the loss).
      await page.locator('.calendar a').last().click();
      await page.waitForURL(/[?&]day=\d{4}-\d{2}-\d{2}/);
      await fitsEveryWidth(page, 'account day');

      await page.getByRole('link', { name: 'Alerts and snoozes' }).click();
      await page.getByRole('heading', { name: 'Open alerts, worst first' }).waitFor();
      await expect(
        page
          .getByRole('region', { name: 'Open alerts' })
          .getByRole('link', { name: /^main / })
          .count(),
      ).resolves.toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshots(page, 'alerts');

      const notReceived = await page.goto(`${base()}/desk/accounts/${other}`);
      expect(notReceived?.status()).toBe(404);
      const api = await page.goto(`${base()}/desk/api/accounts/${other}/series`);
      expect(api?.status()).toBe(404);

      await page.goto(`${base()}/desk`);
      await Promise.all([page.waitForURL(/\/desk\/sign-in\?notice=signed-out$/), page.getByRole('button', { name: 'Sign out', exact: true }).click()]);
      await page.goto(`${base()}/desk`);
      expect(page.url()).toBe(`${base()}/desk/sign-in`);
      await expect(page.getByRole('button', { name: 'Email me a sign-in link' }).isVisible()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('registers a passkey on a virtual authenticator and signs in with it after signing out, onto the page asked for', async () => {
    const { context, page } = await newPage();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      await signInByEmail(page, trader);
      await page.goto(`${base()}/desk/passkeys`);
      await page.getByLabel('Name').fill('e2e laptop');
      await page.getByRole('button', { name: 'Register a passkey' }).click();
      await page.getByRole('cell', { name: 'e2e laptop', exact: true }).waitFor();
      await fitsEveryWidth(page, 'passkeys');
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]?.isResidentCredential).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);

      await Promise.all([page.waitForURL(/\/desk\/sign-in\?notice=signed-out$/), page.getByRole('button', { name: 'Sign out', exact: true }).click()]);
      await page.goto(`${base()}/desk`);
      expect(page.url()).toBe(`${base()}/desk/sign-in`);
      // Asked for an account's page, the sign-in returns there.
      const accountPage = `${base()}/desk/accounts/${own[0]}`;
      await page.goto(accountPage);
      expect(page.url()).toBe(`${base()}/desk/sign-in?next=${encodeURIComponent(`/desk/accounts/${own[0]}`)}`);

      await Promise.all([page.waitForURL(accountPage), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
      await page.goto(`${base()}/desk`);
      const hrefs = await page.locator('a[href*="/desk/accounts/0x"]').count();
      expect(hrefs).toBeGreaterThanOrEqual(own.length);
      const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(after.credentials[0]?.signCount).toBeGreaterThan(credentials[0]?.signCount ?? 0);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe("a revoke from the desk page in Chromium, through today's confirmation page, on the strict simulator", () => {
  // One origin for the desk and /revoke, as deployed: the desk's pages allow forms (and their redirects) to 'self' only.
  const route = deskRoute();
  const chain = revocationWorld({ routes: [route.route] });
  let desk: DeskWorld;
  beforeAll(async () => {
    // The desk's Revoke buttons mint the links the revocation world's pages (/revoke) verify.
    desk = await startDeskWorld(chain.tables, { repos: chain.repos, revokeLinks: chain.links, on: { server: chain.server, route } });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
  });

  it('signs in, presses Revoke on one key, confirms it; the simulator accepts the signed removal; the key leaves the page after the next delegate check', async () => {
    const account = await chain.trackAccount({ label: 'desk-browser-revoke', delegates: ['bot', 'mm'] });
    const [bot, mm] = account.delegates;
    const { context, page } = await newPage();
    try {
      await signInByEmail(page, account.emails[0]!, desk.baseUrl);
      await page.goto(`${desk.baseUrl}/desk/accounts/${account.address}`);
      const keys = page.getByRole('region', { name: 'Keys' });
      await expect(page.getByRole('button', { name: 'Revoke bot' }).count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'Revoke mm' }).count()).resolves.toBe(1);
      await fitsEveryWidth(page, 'account with keys');

      // The desk answers 303 to the single-use link: the confirmation page, which changes nothing when opened.
      await Promise.all([
        page.waitForURL((url) => url.href.startsWith(`${chain.server.url}/revoke?token=`)),
        page.getByRole('button', { name: 'Revoke bot' }).click(),
      ]);
      await page.getByRole('heading', { name: 'Revoke this API key?', exact: true }).waitFor();
      expect((await chain.chainState(account.address)).delegates).toHaveLength(2);

      await page.getByRole('button', { name: 'Revoke this API key' }).click();
      await page.getByRole('heading', { name: 'API key revoked', exact: true }).waitFor();
      // The strict simulator verified the owner's EIP-191 signature and removed the key; the other stays.
      expect((await chain.chainState(account.address)).delegates.map((d) => d.toLowerCase())).toEqual([mm!.address.toLowerCase()]);

      // The next poll's delegate check (collect's own) records the removal; the page then lists one key.
      const tracked = (await chain.repos.accounts.get(account.address))!;
      const listed = await chain.chain.getDelegateTraders(account.address);
      const now = Date.now();
      const watched = await watchDelegates(
        { delegates: chain.repos.delegates, knownDelegates: chain.repos.knownDelegates, decisions: chain.repos.decisions, alerts: chain.repos.alerts },
        tracked,
        listed,
        { now, firstObservation: false, sightedAt: now },
      );
      await watched.commit();
      await page.goto(`${desk.baseUrl}/desk/accounts/${account.address}`);
      await expect(page.getByRole('button', { name: 'Revoke mm' }).count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'Revoke bot' }).count()).resolves.toBe(0);
      await expect(keys.getByText(bot!.address, { exact: false }).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
