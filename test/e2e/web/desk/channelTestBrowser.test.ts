import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelSecrets } from '../../../../functions/channels/channelSecrets';
import { localDeskAssets } from '../../../../local/localDesk';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';
import { receiversPerFile } from '../../../support/channels/receiversPerFile';
import { fitsEveryWidth } from '../../../support/desk/deskFits';
import { seriousViolations } from '../../../support/desk/deskAxe';
import { startDeskWorld, type DeskWorld } from '../../../support/desk/deskWorld';
import { CHROMIUM_PATH } from '../../../support/screenshot';
import { testTables } from '../../../support/testTables';

const tables = testTables();
const receivers = receiversPerFile();
const run = Math.random().toString(36).slice(2, 8);
const ops = `ops-${run}@example.com`;
const SLACK_PATH = `T${run}/B000/browser-secret-path`;
let world: DeskWorld;
let browser: Browser;

/** The desk (its built client) and the local chat receivers, an operator pressing Test in headless Chromium. */
beforeAll(async () => {
  world = await startDeskWorld(tables, {
    operatorEmail: ops,
    assets: localDeskAssets(),
    channelSender: {
      secrets: new ChannelSecrets({ DESK_BROWSER_SLACK: receivers.slackUrl(SLACK_PATH) }, null),
      bases: { telegram: receivers.telegramApiUrl, pagerduty: receivers.pagerdutyEventsUrl },
      policy: { loopback: true },
    },
  });
  await world.repos.channels.create(channelRecordOf({ name: `desk-${run}`, type: 'slack', secret: 'env:DESK_BROWSER_SLACK', accounts: [] }, Date.now()));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

describe("the channels page's Test button in Chromium", () => {
  it('sends the test message on a press, shows "sent" after the redirect, stays accessible, and answers a second press with when to try again', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(world.signInLink(ops));
      await Promise.all([page.waitForURL(`${world.baseUrl}/desk`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      await page.goto(`${world.baseUrl}/desk/channels`);
      const test = page.getByRole('button', { name: `Test desk-${run}` });
      expect(await seriousViolations(page)).toEqual([]);
      await fitsEveryWidth(page, 'channels');

      await Promise.all([page.waitForURL(/\/desk\/channels\?test=/), test.click()]);
      await expect(page.getByRole('status').textContent()).resolves.toMatch(
        new RegExp(`^sent Test message sent to desk-${run} at .+: delivered \\(HTTP 200\\)\\.$`),
      );
      expect(receivers.received.filter((r) => r.destination === SLACK_PATH).map((r) => r.status)).toEqual([200]);
      expect(await seriousViolations(page)).toEqual([]);

      const again = page.waitForResponse((r) => r.url().endsWith('/desk/channels/test'));
      await page.getByRole('button', { name: `Test desk-${run}` }).click();
      expect((await again).status()).toBe(429);
      await expect(page.locator('main').textContent()).resolves.toMatch(/try again in \d+ s\. Nothing was sent\./);
      expect(receivers.received.filter((r) => r.destination === SLACK_PATH)).toHaveLength(1);
    } finally {
      await context.close();
    }
  }, 120_000);
});
