import { describe, expect, it } from 'vitest';
import { buildReportModel, type SummaryReadings } from '../../../../../functions/domain/reportModel';
import { reportWindows } from '../../../../../functions/domain/reportWindows';
import { SUMMARY_FIELDS, type SummaryField } from '../../../../../functions/domain/summaryFields';
import { localDayBounds } from '../../../../../functions/domain/localTime';
import { recipientLinks } from '../../../../../functions/services/delivery/recipientLinks';
import { REPORT_HTML_BUDGET_BYTES, renderReport } from '../../../../../functions/notices/renderReport';
import { presentReport } from '../../../../../functions/notices/reportPresenter';
import { accountRecord, testAddress } from '../../../../support/store/accountFixture';
import { sharedRenderer, testLinks } from '../../../../support/delivery/mailHarness';
import { renderDigest } from '../../../../../functions/notices/renderDigest';
import type { DigestView } from '../../../../../functions/mail/render/views';
import { BOT_KEY, digest, revokeUrl } from '../../../../../local/mailSamples';

/** Gmail clips an HTML part past about 102 KB, hiding the rest of the message (the footer with the unsubscribe link). */
const GMAIL_CLIP_BYTES = 102 * 1024;
const HOUR = 3_600_000;
const ZONE = 'Europe/Berlin';
const DATE = '2026-11-22';
const bounds = localDayBounds(DATE, ZONE);
const NOW = bounds.endMs + 8 * HOUR;
const account = accountRecord({
  address: testAddress(1, 0x512e),
  label: 'A rather long account label for the worst case'.slice(0, 64),
  timezone: ZONE,
  signer: 'env:OWNER_KEY',
});

/** Every metric at its widest: eight-figure amounts and changes. */
const wide: SummaryReadings = Object.fromEntries(SUMMARY_FIELDS.map((f) => [f, { kind: 'number', value: -12_345_678.91 }])) as Record<
  SummaryField,
  { kind: 'number'; value: number }
>;

function render(delegates: number) {
  const windows = reportWindows(DATE, ZONE).map((window) => ({
    window,
    summary: wide,
    previous: wide,
    series: [
      { timestamp: window.fromMs, equity: 10_000_000, pnl: 0 },
      { timestamp: window.toMs, equity: 9_000_000, pnl: -1_000_000 },
    ],
  }));
  const model = buildReportModel({
    settings: { address: account.address, label: account.label, timezone: ZONE, interval: '1m' },
    day: { localDate: DATE, ...bounds },
    windows,
    history: windows[0]!.series,
    delegates: Array.from({ length: delegates }, (_, i) => ({
      address: testAddress(1000 + i, 0x512e),
      name: `delegate-${String(i).padStart(11, '0')}`,
      expiryMs: NOW + i * HOUR,
      isWebClient: i % 3 === 0,
    })),
    removedDelegates: Array.from({ length: 5 }, (_, i) => ({ address: testAddress(5000 + i, 0x512e), name: 'removed-bot-name-xx', removedAt: NOW - i * HOUR })),
    now: NOW,
  });
  const links = recipientLinks(testLinks(), account, 'a-long-recipient-address+reports@example.com', NOW, 'reports');
  const { view } = presentReport(model, {
    id: 'daily-report:size',
    preferencesUrl: links.preferencesUrl,
    chart: true,
    mail: {
      status: { state: 'stale', reason: 'x'.repeat(500), lastPointAtMs: NOW },
      chart: { cid: 'report-chart@sentinel', alt: 'chart', width: 544, height: 320 },
      unsubscribeUrl: links.unsubscribeUrl,
      preferencesUrl: links.preferencesUrl,
      revokeUrl: links.revokeUrl,
    },
  }).email;
  return { rendered: renderReport(sharedRenderer(), view, ZONE), unsubscribeUrl: links.unsubscribeUrl, view };
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
/** A URL as Handlebars writes it into an attribute. */
const attr = (url: string) => url.replace(/&/g, '&amp;').replace(/=/g, '&#x3D;');

describe("the report's HTML size (Gmail clips past 102 KB)", () => {
  it('stays well under the limit with three windows of 18 wide metrics and 25 delegates, all listed with revoke links', () => {
    const { rendered, view } = render(25);
    expect(bytes(rendered.html)).toBeLessThan(REPORT_HTML_BUDGET_BYTES);
    expect(bytes(rendered.html)).toBeLessThan(80 * 1024);
    for (const d of view.delegates) expect(rendered.html).toContain(`href="${attr(d.revokeUrl ?? '')}"`);
    expect(rendered.html).not.toContain('more delegates');
  });

  it.each([60, 150, 400])('with %i delegates stays under the limit, keeps the footer, and lists every delegate in the text part', (n) => {
    const { rendered, unsubscribeUrl, view } = render(n);
    const size = bytes(rendered.html);
    expect(size).toBeLessThanOrEqual(REPORT_HTML_BUDGET_BYTES);
    expect(size).toBeLessThan(GMAIL_CLIP_BYTES);
    // The unsubscribe link in the footer is the last link of the HTML.
    expect(rendered.html.lastIndexOf(`href="${attr(unsubscribeUrl)}"`)).toBeGreaterThan(0);
    expect(rendered.html.lastIndexOf('href=')).toBe(rendered.html.lastIndexOf(`href="${attr(unsubscribeUrl)}"`));
    expect(rendered.html).toContain('</html>');
    const shown = view.delegates.filter((d) => rendered.html.includes(`href="${attr(d.revokeUrl ?? '')}"`)).length;
    expect(shown).toBeGreaterThan(20);
    if (shown < n) expect(rendered.html).toContain(`And ${n - shown} more delegates`);
    for (const d of view.delegates) expect(rendered.text).toContain(d.revokeUrl ?? '');
  });
});

describe("the digest's HTML size", () => {
  /** `n` accounts, each with the sample's widest section (three delegates with revoke links). */
  function view(n: number): DigestView {
    const row = digest.rows[1]!;
    const section = { ...digest.sections[2]!, delegates: [...digest.sections[2]!.delegates, ...digest.sections[1]!.delegates] };
    const accounts = Array.from({ length: n }, (_, i) => ({
      address: testAddress(7000 + i, 0x512e),
      label: `desk-${String(i).padStart(3, '0')}-a-rather-long-label`,
    }));
    return {
      ...digest,
      accountCount: n,
      rows: accounts.map((account, i) => ({ ...row, account, trend: { ...row.trend!, cid: `trend-${i}@sentinel` } })),
      sections: accounts.map((account) => ({ ...section, account })),
    };
  }

  it.each([50, 300])('with %i accounts stays under the limit, keeps the footer, and has every account and revoke link in the text part', (n) => {
    const v = view(n);
    const { rendered, rowsShown } = renderDigest(sharedRenderer(), v, ZONE);
    expect(bytes(rendered.html)).toBeLessThanOrEqual(REPORT_HTML_BUDGET_BYTES);
    expect(rendered.html.lastIndexOf('href=')).toBe(rendered.html.lastIndexOf(`href="${attr(digest.links.unsubscribeUrl)}"`));
    expect(rendered.html).toContain('</html>');
    if (n === 50) expect(rowsShown).toBe(50);
    else expect(rendered.html).toContain(`And ${n - rowsShown} more accounts, listed in the plain-text part`);
    const sections = (rendered.html.match(/class="section"/g) ?? []).length;
    if (sections < n) expect(rendered.html).toContain(`The sections of ${n - sections} more accounts`);
    for (const s of v.sections) expect(rendered.text).toContain(s.account.address);
    expect(rendered.text.split(revokeUrl(BOT_KEY)).length - 1).toBe(n);
  });
});
