import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendToChannel } from '../../../functions/channels/channelSender';
import type { ChannelConfig } from '../../../functions/domain/channel';
import { newWebhookSecret } from '../../../functions/channels/webhook/webhookSignature';
import { startChatReceivers } from '../../../local/receivers/chatReceivers';
import { receiversPerFile } from '../../support/channels/receiversPerFile';
import { chartPng } from '../../support/channels/chartPng';
import { CHROMIUM_PATH } from '../../support/screenshot';
import { drawdownEvent, newDelegateEvent, noticeOf } from '../../support/channels/noticeFixtures';
import { presentDigest } from '../../../functions/notices/digestPresenter';
import { localDayBounds } from '../../../functions/domain/localTime';
import { digestRowsOf, REPORT_NOW } from '../../support/report/chatReportFixtures';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { receiverSenderDeps } from '../../support/channels/receiverSenderDeps';

/** The local inbox's channels view (`/channels` of the receivers), read in headless Chromium. */
describe('the channels view', () => {
  const receivers = receiversPerFile();
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows each channel type what it was sent, the alert and its buttons; a hostile delegate name is text, never markup', async () => {
    const env = {
      SLACK: receivers.slackUrl('T1/B1/view'),
      DISCORD: receivers.discordUrl('8', 'view'),
      TELEGRAM: '777:view-bot',
      PAGERDUTY: 'R0123456789abcdef0123456789abcdf',
      WEBHOOK: newWebhookSecret(),
    };
    const deps = receiverSenderDeps(receivers, env);
    const channels: Pick<ChannelConfig, 'type' | 'secret' | 'url' | 'chatId'>[] = [
      { type: 'slack', secret: 'env:SLACK', url: null, chatId: null },
      { type: 'discord', secret: 'env:DISCORD', url: null, chatId: null },
      { type: 'telegram', secret: 'env:TELEGRAM', url: null, chatId: '-100777' },
      { type: 'pagerduty', secret: 'env:PAGERDUTY', url: null, chatId: null },
      { type: 'webhook', secret: 'env:WEBHOOK', url: receivers.webhookUrl('view'), chatId: null },
    ];
    const drawdown = noticeOf(drawdownEvent);
    const intruder = noticeOf(newDelegateEvent);
    for (const [i, channel] of channels.entries()) {
      expect(await sendToChannel(deps, channel, drawdown, `msg_d${i}`, Math.floor(Date.now() / 1000)), channel.type).toMatchObject({ kind: 'delivered' });
    }
    // Past each chat's 1/s: the intruder notice goes a second later.
    await new Promise((r) => setTimeout(r, 1_100));
    for (const [i, channel] of channels.entries()) {
      expect(await sendToChannel(deps, channel, intruder, `msg_i${i}`, Math.floor(Date.now() / 1000)), channel.type).toMatchObject({ kind: 'delivered' });
    }

    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const answer = await page.goto(`${receivers.baseUrl}/channels`);
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['content-security-policy']).toContain("default-src 'none'");
      for (const kind of ['slack', 'discord', 'telegram', 'pagerduty', 'webhook']) expect(await page.locator(`article.${kind}`).count(), kind).toBe(2);
      const shown = await page.locator('body').innerText();
      expect(shown).toContain(drawdown.title);
      expect(shown).toContain(intruder.title);
      // The hostile name is on the page as the characters it is made of...
      expect(shown).toContain('<script>');
      expect(shown).toContain('<!channel>');
      // ...and none of it became markup: no script, no bold text, no link to the intruder's site.
      expect(await page.locator('script').count()).toBe(0);
      expect(await page.locator('article b').evaluateAll((bs) => bs.filter((b) => (b.textContent ?? '').includes('&')).length)).toBe(0);
      expect(await page.locator('a[href*="evil.example"]').count()).toBe(0);
      // The chat buttons are there (Slack's and Telegram's Revoke), pointing at the revocation page.
      expect(await page.locator('article.slack a.button', { hasText: /revoke/i }).count()).toBeGreaterThan(0);
      expect(await page.locator('article.telegram a.button[href^="https://sentinel.example/revoke"]').count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it("shows a digest posted to chat as its table, monospaced, the accounts' labels as text", async () => {
    const deps = receiverSenderDeps(receivers, { SLACK: receivers.slackUrl('T1/B1/digest'), DISCORD: receivers.discordUrl('9', 'digest') });
    const notice = presentDigest(
      digestRowsOf(3, (i) => `<b>desk ${i}</b>`),
      { id: 'daily-digest:view', span: 'day', reportDate: '2026-11-23', period: localDayBounds('2026-11-22', 'UTC'), timeZone: 'UTC', generatedAt: REPORT_NOW },
    );
    for (const [i, secret] of ['env:SLACK', 'env:DISCORD'].entries()) {
      const channel = { type: i === 0 ? ('slack' as const) : ('discord' as const), secret, url: null, chatId: null };
      expect(await sendToChannel(deps, channel, notice, `msg_t${i}`, Math.floor(Date.now() / 1000))).toMatchObject({ kind: 'delivered' });
    }
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${receivers.baseUrl}/channels`);
      for (const kind of ['slack', 'discord']) {
        const table = page.locator(`article.${kind} pre`, { hasText: 'DD now' });
        expect(await table.count(), kind).toBe(1);
        const lines = (await table.innerText()).split('\n');
        expect(lines[0]).toMatch(/^Account +Equity +PnL +Return +DD now +Alerts +Expiring$/);
        expect(lines.filter((l) => l.startsWith('<b>desk '))).toHaveLength(3);
      }
      expect(await page.locator('article b', { hasText: 'desk' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows a Discord message with a file upload as its embed with the chart, and a Telegram photo; a restart on the same state file keeps them', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'receivers-')), 'received.jsonl');
    let kept = await startChatReceivers({ stateFile });
    const deps = receiverSenderDeps(kept, { DISCORD: kept.discordUrl('10', 'upload'), TG: '778:upload-bot' });
    const drawdown = noticeOf(drawdownEvent);
    // Two days of points.
    const png = chartPng(1);
    const discord = { type: 'discord' as const, secret: 'env:DISCORD', url: null, chatId: null };
    const telegram = { type: 'telegram' as const, secret: 'env:TG', url: null, chatId: '-100778' };
    expect(await sendToChannel(deps, discord, drawdown, 'msg_up1', 0, { chart: png, part: 'whole' })).toMatchObject({ kind: 'delivered' });
    expect(await sendToChannel(deps, telegram, drawdown, 'msg_up2', 0, { chart: png, part: 'whole' })).toMatchObject({ kind: 'delivered' });
    const port = new URL(kept.baseUrl).port;
    await kept.stop();
    kept = await startChatReceivers({ stateFile, port: Number(port) });
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${kept.baseUrl}/channels`);
      const embed = page.locator('article.discord .embed');
      expect(await embed.count()).toBe(1);
      expect(await embed.innerText()).toContain(drawdown.title);
      for (const kind of ['discord', 'telegram']) {
        const img = page.locator(`article.${kind} img.upload`);
        expect(await img.count(), kind).toBe(1);
        // The image loads (the page's policy allows its own files) and is the chart that was uploaded.
        expect(await img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0), kind).toBe(true);
        const served = await (await fetch(new URL((await img.getAttribute('src')) ?? '', kept.baseUrl))).arrayBuffer();
        expect(Buffer.from(served).equals(Buffer.from(png)), kind).toBe(true);
      }
    } finally {
      await context.close();
      await kept.stop();
    }
  });
});
