import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmailRenderError } from '../../../../functions/mail/errors';
import { MINUS, formatMoney, formatPercent, formatTime } from '../../../../functions/mail/render/format';
import { createEmailRenderer, renderEmail } from '../../../../functions/mail/render/render';
import { defaultTemplateRoot } from '../../../../functions/mail/render/templates';
import { EMAIL_KINDS, type DailyReportView } from '../../../../functions/mail/render/views';
import {
  ACCOUNT,
  BOT_KEY,
  OLD_KEY,
  TIME_ZONE,
  WEB_KEY,
  dailyReport,
  delegateExpiry,
  digest,
  drawdownAlert,
  links,
  newDelegate,
  revocationResult,
  revokeAllResult,
  revokeUrl,
  views,
} from '../../../../local/mailSamples';

const tz = { timeZone: TIME_ZONE };
const XSS = '<script>alert("x")</script>';

/** Visible text of an HTML body, roughly: tags dropped, entities decoded. */
function visible(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

/** Emails about one account (the digest is about several: see its own tests below). */
/** The emails about one account (the digest and the onboarding notice cover several). */
const ACCOUNT_KINDS = EMAIL_KINDS.filter((kind) => kind !== 'digest' && kind !== 'onboarding-breaches');

describe('every email', () => {
  it.each(ACCOUNT_KINDS)('%s renders a subject, an HTML body with inlined CSS and a text body with the unsubscribe link', (kind) => {
    const { subject, html, text } = renderEmail(kind, views[kind] as never, tz);
    expect(subject).not.toMatch(/[\r\n]/);
    expect(subject).toContain('bot-main');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).not.toMatch(/<style[^>]*>[^<]*\.card\s*\{/); // class rules were inlined and removed...
    expect(html).toContain('@media'); // ...only the responsive query stays in a style block
    expect(html).toMatch(/<td class="card" style="[^"]*background-color: #ffffff/);
    expect(html).not.toMatch(/<script|javascript:|<link |src="https?:/i);
    expect(html).toContain(`href="${links.unsubscribeUrl}"`);
    expect(text).toContain(`Unsubscribe: ${links.unsubscribeUrl}`);
    expect(text).not.toMatch(/<[a-z]+[ >]/i);
    expect(text).toContain(ACCOUNT);
  });

  it.each(ACCOUNT_KINDS)('%s escapes a label containing markup in HTML and keeps it literal in text', (kind) => {
    const view = { ...views[kind], account: { address: ACCOUNT, label: XSS } };
    const { html, text, subject } = renderEmail(kind, view as never, tz);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(text).toContain(XSS);
    expect(subject).toContain(XSS);
  });
});

describe('onboarding notice', () => {
  it('lists each account worst first with its drawdown and level, escapes labels in HTML, and links the drawdown unsubscribe', () => {
    const view = views['onboarding-breaches'];
    const rows = [{ ...view.rows[0]!, account: { address: ACCOUNT, label: XSS } }, ...view.rows.slice(1)];
    const { subject, html, text } = renderEmail('onboarding-breaches', { ...view, rows }, tz);
    expect(subject).toMatch(/^3 accounts were already past a drawdown level when tracking began/);
    expect(subject).not.toMatch(/[\r\n]/);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain(`href="${links.unsubscribeUrl}"`);
    expect(text).toContain(`Unsubscribe from drawdown alerts: ${links.unsubscribeUrl}`);
    const listed = [...text.matchAll(/^\s+\d+\. (.+): (\d+\.\d\d)% drawdown, past the (\d+)% level$/gm)].map((m) => [m[2], m[3]]);
    expect(listed).toEqual([
      ['14.20', '10'],
      ['7.81', '5'],
      ['5.40', '5'],
    ]);
    expect(text).toContain(XSS);
  });
});

describe('daily report', () => {
  const { subject, html, text } = renderEmail('daily-report', dailyReport, tz);
  const day = dailyReport.day ?? expect.fail('fixture has day figures');
  const drawdown = dailyReport.drawdown ?? expect.fail('fixture has a drawdown');
  const shown = visible(html);

  it('has a subject with the label, short address, local date and the day PnL', () => {
    expect(subject).toBe(
      `Daily report for bot-main (0xf39F…2266) — ${formatTime(dailyReport.period.startMs, TIME_ZONE, 'date')}: PnL ${formatMoney(day.pnlUsd, { sign: 'always' })}`,
    );
    expect(subject).toContain('3 Mar 2025');
  });

  it('shows the day figures formatted', () => {
    for (const body of [shown, text]) {
      expect(body).toContain(formatMoney(day.equityEndUsd));
      expect(body).toContain(formatMoney(day.equityStartUsd));
      expect(body).toContain(formatMoney(day.pnlUsd, { sign: 'always' }));
      expect(body).toContain(formatPercent(day.returnPct, { sign: 'always' }));
      expect(body).toContain(formatPercent(drawdown.currentPct));
      expect(body).toContain(formatMoney(drawdown.currentUsd));
      expect(body).toContain(formatPercent(drawdown.maxPct));
      expect(body).toContain(formatMoney(drawdown.peakEquityUsd));
      expect(body).toContain(formatMoney(day.depositsUsd));
    }
    expect(shown).toContain('$110,734.56');
    expect(shown).toContain('+$1,484.44');
  });

  it('lists every metric with its label, description, a column per window and a coloured delta', () => {
    for (const metric of dailyReport.metrics) {
      expect(shown).toContain(metric.label);
      expect(shown).toContain(metric.description);
      expect(text).toContain(`- ${metric.label}: Report day `);
    }
    for (const w of dailyReport.windows) expect(shown).toContain(w.label);
    expect(html).toMatch(/class="delta delta-good"[^>]*>▲ 1\.20 pp</); // win rate up: good
    expect(html).toMatch(/class="delta delta-bad"[^>]*>▲ 0\.31 pp</); // volatility up: bad
    expect(html).toMatch(/class="delta delta-bad"[^>]*>▼ \$2\.10</); // funding down: bad
    expect(html).not.toMatch(/>new</); // the 30-day window has no previous value: no change shown
    expect(text).toContain(`- Funding: Report day ${MINUS}$18.50 (${MINUS}$2.10) · 7 days ${MINUS}$96.20 (+$4.40) · 30 days ${MINUS}$412.37`);
  });

  it('shows a value that fits no unit rule as received', () => {
    const [first, ...rest] = dailyReport.metrics;
    const odd = { ...first!, key: 'returnPct', unit: 'percent' as const, cells: [{ value: null, text: '0.0123', delta: null }] };
    const out = renderEmail(
      'daily-report',
      { ...dailyReport, windows: dailyReport.windows.slice(0, 1), metrics: [odd, ...rest.map((m) => ({ ...m, cells: m.cells.slice(0, 1) }))] },
      tz,
    );
    expect(visible(out.html)).toContain('0.0123');
    expect(out.text).toContain(`- ${odd.label}: Report day 0.0123\n`);
  });

  it('names the two drawdowns apart and says how they differ', () => {
    for (const body of [shown, text]) {
      expect(body).toContain('Drawdown (trading, flow-adjusted) now');
      expect(body).toContain('Max drawdown reported by the chain');
      expect(body).toMatch(/Drawdown \(trading, flow-adjusted\) is Portfolio Sentinel’?'?s own figure/);
    }
    expect(shown).not.toMatch(/Max drawdown \(chain\)/);
    expect(text).toContain(`as of ${formatTime(dailyReport.drawdownAsOfMs!, TIME_ZONE)}`);
  });

  it('labels the chain figure as sampled, the service figure as the one alerts use, and states the sampling', () => {
    for (const body of [shown, text]) {
      expect(body).toContain('Max drawdown reported by the chain (sampled)');
      expect(body).toContain('the one drawdown alerts use');
      expect(body).toMatch(/the chain was asked for every window at 1h \(one point every 1h/);
    }
    const kolkata = renderEmail('daily-report', { ...dailyReport, sampling: '30m' }, { timeZone: 'Asia/Kolkata' });
    expect(kolkata.text).toContain("asked for every window at 30m (one point every 30m, on the grid of Asia/Kolkata's midnights)");
    const digestOut = renderEmail('digest', digest, tz);
    expect(digestOut.text).toContain('max drawdown reported by the chain (sampled, 30 days)');
    expect(digestOut.text).toContain('asked at 1h (one point every 1h');
  });

  it('embeds the chart by CID', () => {
    expect(html).toContain(`src="cid:${dailyReport.chart?.cid ?? ''}"`);
    expect(html).toContain(`alt="${dailyReport.chart?.alt ?? ''}"`);
  });

  it('carries every revoke link, kinds and countdowns in the delegates table', () => {
    for (const delegate of dailyReport.delegates) {
      expect(html).toContain(`href="${delegate.revokeUrl ?? ''}"`);
      expect(text).toContain(delegate.revokeUrl ?? '');
      expect(shown).toContain(delegate.address);
    }
    expect(shown).toContain('API key');
    expect(shown).toContain('web session');
    expect(shown).toContain('in 3 days 4 h');
    expect(shown).toContain('in 29 days');
  });

  it('mentions removed delegates', () => {
    expect(shown).toContain('Removed since the last report');
    expect(shown).toContain(OLD_KEY);
  });

  it('says when one-click revocation is not configured instead of showing a link', () => {
    const view: DailyReportView = { ...dailyReport, delegates: dailyReport.delegates.map((d) => ({ ...d, revokeUrl: null })) };
    const out = renderEmail('daily-report', view, tz);
    expect(out.html).not.toContain('/r/revoke-token');
    expect(visible(out.html)).toContain('One-click revoke not configured');
    expect(out.text).toContain("One-click revocation isn't configured");
  });

  it('warns about stale data in subject and body', () => {
    const view: DailyReportView = {
      ...dailyReport,
      status: { state: 'stale', reason: 'The chain has not answered since 05:00.', lastPointAtMs: dailyReport.generatedAtMs - 3 * 3_600_000 },
    };
    const out = renderEmail('daily-report', view, tz);
    expect(out.subject).toMatch(/^\[stale data\] Daily report/);
    expect(visible(out.html)).toContain('Data is stale.');
    expect(visible(out.html)).toContain('The chain has not answered since 05:00.');
    expect(out.text).toContain('DATA IS STALE');
  });

  it('never prints a URL from a status reason stored with the raw error text', () => {
    const reason = '3 consecutive collection errors; last: GET http://127.0.0.1:45123/portfolio?account=0xabc&interval=1h failed with HTTP 500';
    const out = renderEmail('daily-report', { ...dailyReport, status: { state: 'failing', reason, lastPointAtMs: null } }, tz);
    for (const body of [visible(out.html), out.text]) {
      expect(body).toContain('3 consecutive collection errors; last: a request failed with HTTP 500');
      expect(body).not.toMatch(/127\.0\.0\.1|45123|portfolio\?|interval=1h/);
    }
  });

  it('reports deposits and withdrawals as such, and no flows as none', () => {
    const flows = (depositsUsd: number, withdrawalsUsd: number) => {
      const out = renderEmail('daily-report', { ...dailyReport, day: { ...day, depositsUsd, withdrawalsUsd, netFlowsUsd: depositsUsd - withdrawalsUsd } }, tz);
      return { html: visible(out.html), text: out.text };
    };
    expect(flows(5000, 0).html).toContain('Deposits of $5,000.00 during the day.');
    expect(flows(0, 2500).html).toContain('Withdrawals of $2,500.00 during the day.');
    expect(flows(0, 2500).text).toContain('Flows:           withdrawals $2,500.00');
    expect(flows(1000, 3000).html).toContain(`Deposits of $1,000.00 and withdrawals of $3,000.00 during the day (net ${MINUS}$2,000.00).`);
    expect(flows(0, 0).html).toContain('No deposits or withdrawals during the day.');
  });

  it('still renders a day without data and an account without history', () => {
    const out = renderEmail(
      'daily-report',
      { ...dailyReport, day: null, drawdown: null, drawdownAsOfMs: null, drawdownSinceMs: null, chart: null, chartCaption: null, metrics: [] },
      tz,
    );
    expect(out.subject).toBe('Daily report for bot-main (0xf39F…2266) — 3 Mar 2025: no data for the day');
    expect(visible(out.html)).toContain('The chain has no equity or PnL point for this day.');
    expect(visible(out.html)).toContain('Not enough history yet');
    expect(out.html).not.toContain('cid:');
    expect(out.text).toContain('The chain has no equity or PnL point for this day.');
  });

  it('shows times in the recipient time zone', () => {
    const ny = renderEmail('daily-report', dailyReport, { timeZone: 'America/New_York' });
    expect(ny.text).toContain('Sent Tue, 4 Mar 2025, 02:00 EST');
    expect(text).toContain('Sent Tue, 4 Mar 2025, 08:00 CET');
  });
});

describe('drawdown alert', () => {
  it('names the level, the account and the dollar drawdown', () => {
    const { subject, html, text } = renderEmail('drawdown-alert', drawdownAlert, tz);
    expect(subject).toBe('⚠ Drawdown 10% reached on bot-main (0xf39F…2266)');
    expect(visible(html)).toContain('Drawdown crossed 10%');
    expect(visible(html)).toContain('10.42%');
    expect(visible(html)).toContain('$11,921.40');
    expect(text).toContain('re-arms once the drawdown recovers below 9%');
    expect(text).toContain('Your levels: 5%, 10%, 20%');
    for (const snooze of drawdownAlert.snoozeLinks) {
      expect(html).toContain(`href="${snooze.url}"`);
      expect(text).toContain(snooze.url);
    }
  });

  it('words a repeat as a reminder', () => {
    const { subject, html } = renderEmail('drawdown-alert', { ...drawdownAlert, repeat: true, drawdown: { ...drawdownAlert.drawdown, currentPct: 12.34 } }, tz);
    expect(subject).toBe('⚠ Still in drawdown: 12.3% on bot-main (0xf39F…2266) (level 10%)');
    expect(visible(html)).toContain('Still 12.34% below the peak');
  });
});

describe('delegate notices', () => {
  it('warns before expiry with the countdown and the revoke link', () => {
    const { subject, html, text } = renderEmail('delegate-expiry', delegateExpiry, tz);
    expect(subject).toBe('API key “market-maker-1” on bot-main (0xf39F…2266) expires in 3 days 4 h');
    expect(html).toContain(`href="${delegateExpiry.delegate.revokeUrl ?? ''}"`);
    expect(text).toContain(delegateExpiry.delegate.revokeUrl ?? '');
    expect(visible(html)).toContain(BOT_KEY);
  });

  it('announces an expired delegate', () => {
    const view = {
      ...delegateExpiry,
      phase: 'expired' as const,
      delegate: { ...delegateExpiry.delegate, expiryMs: delegateExpiry.generatedAtMs - 2 * 3_600_000 },
    };
    const { subject, html } = renderEmail('delegate-expiry', view, tz);
    expect(subject).toBe('API key “market-maker-1” on bot-main (0xf39F…2266) has expired');
    expect(visible(html)).toContain('expired 2 h ago');
  });

  it('asks "was this you?" about a new delegate and escapes its chain-controlled name', () => {
    const view = { ...newDelegate, delegate: { ...newDelegate.delegate, name: '<img src=x onerror=alert(1)>' } };
    const { subject, html, text } = renderEmail('new-delegate', view, tz);
    expect(subject).toMatch(/^New API key “<img src=x onerror=alert\(1\)>” added to bot-main \(0xf39F…2266\) — was this you\?$/);
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;');
    expect(html).toContain(`href="${newDelegate.delegate.revokeUrl ?? ''}"`);
    expect(text).toContain("IF THIS WASN'T YOU, REVOKE IT NOW");
  });

  it('explains how to revoke without a signer', () => {
    const { html } = renderEmail('new-delegate', { ...newDelegate, delegate: { ...newDelegate.delegate, revokeUrl: null } }, tz);
    expect(visible(html)).toContain("One-click revocation isn't configured");
  });
});

describe('revocation result', () => {
  it.each([
    ['revoked', '✓ API key “arb-bot” revoked on bot-main (0xf39F…2266)', 'Key revoked'],
    ['already-revoked', '✓ API key “arb-bot” was already gone from bot-main (0xf39F…2266)', 'The key was already gone'],
    ['rejected', '✗ Revocation of “arb-bot” on bot-main (0xf39F…2266) was refused by the chain', 'The chain refused the revocation'],
    ['unconfirmed', 'Revocation of “arb-bot” on bot-main (0xf39F…2266) sent but not yet confirmed', 'Revocation sent, not yet confirmed'],
    ['failed', '✗ Revocation of “arb-bot” on bot-main (0xf39F…2266) failed', 'Revocation failed'],
  ] as const)('%s', (outcome, expectedSubject, headline) => {
    const view = { ...revocationResult, outcome, chainMessage: outcome === 'rejected' ? 'stale nonce <7>' : null };
    const { subject, html, text } = renderEmail('revocation-result', view, tz);
    expect(subject).toBe(expectedSubject);
    expect(visible(html)).toContain(headline);
    expect(text).toContain(revocationResult.delegate.address);
    if (outcome === 'rejected') {
      expect(html).toContain('stale nonce &lt;7&gt;');
      expect(text).toContain('The chain said: stale nonce <7>');
    }
  });
});

describe('addresses', () => {
  it('accepts any case and shows the checksummed form', () => {
    const { html, text } = renderEmail('new-delegate', { ...newDelegate, account: { address: ACCOUNT.toLowerCase(), label: null } }, tz);
    expect(text).toContain(ACCOUNT);
    expect(visible(html)).toContain('0xf39F…2266');
  });
});

describe('bad input', () => {
  it('names the invalid field', () => {
    const bad = { ...dailyReport, day: { ...dailyReport.day, equityEndUsd: 'lots' } } as unknown as DailyReportView;
    expect(() => renderEmail('daily-report', bad, tz)).toThrow(EmailRenderError);
    expect(() => renderEmail('daily-report', bad, tz)).toThrow(/daily-report view: day\.equityEndUsd/);
  });

  it('rejects a link that is not http(s)', () => {
    const bad = { ...newDelegate, delegate: { ...newDelegate.delegate, revokeUrl: 'javascript:alert(1)' } };
    expect(() => renderEmail('new-delegate', bad, tz)).toThrow(/delegate\.revokeUrl/);
  });

  it('rejects an unknown time zone', () => {
    expect(() => renderEmail('drawdown-alert', drawdownAlert, { timeZone: 'Europe/Atlantis' })).toThrow(/timeZone/);
  });
});

describe('template root', () => {
  const root = mkdtempSync(join(tmpdir(), 'sentinel-templates-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is injectable: a renderer reads its own copy of the templates, once', () => {
    cpSync(defaultTemplateRoot(), root, { recursive: true });
    writeFileSync(join(root, 'emails', 'drawdown-alert.subject.hbs'), 'Custom: {{percent thresholdPct trim=true}}');
    const renderer = createEmailRenderer({ templateRoot: root });
    expect(renderer.render('drawdown-alert', drawdownAlert, tz).subject).toBe('Custom: 10%');
    writeFileSync(join(root, 'emails', 'drawdown-alert.subject.hbs'), 'Changed on disk');
    expect(renderer.render('drawdown-alert', drawdownAlert, tz).subject).toBe('Custom: 10%');
  });

  it('fails clearly when a template is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'sentinel-templates-empty-'));
    try {
      expect(() => createEmailRenderer({ templateRoot: empty })).toThrow(/cannot read template .*daily-report\.subject\.hbs/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('template syntax', () => {
  it('is checked when the renderer is created', () => {
    const root = mkdtempSync(join(tmpdir(), 'sentinel-templates-broken-'));
    try {
      cpSync(defaultTemplateRoot(), root, { recursive: true });
      writeFileSync(join(root, 'emails', 'new-delegate.html.hbs'), '{{#if}}unclosed');
      expect(() => createEmailRenderer({ templateRoot: root })).toThrow(/template emails\/new-delegate\.html\.hbs does not compile/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('digest', () => {
  const { subject, html, text } = renderEmail('digest', digest, tz);

  it('names the desk in the subject and leads with the account that needs attention', () => {
    expect(subject).toBe('Daily digest — 5 accounts, 3 Mar 2025: hedge-book (0x9965…A4dc) unavailable');
    expect(subject).not.toMatch(/[\r\n]/);
  });

  it('renders like every email: inlined CSS, no remote content, the unsubscribe link in HTML and text', () => {
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toMatch(/<td class="card" style="[^"]*background-color: #ffffff/);
    expect(html).not.toMatch(/<script|javascript:|<link |src="https?:/i);
    expect(html).toContain(`href="${links.unsubscribeUrl}"`);
    expect(text).toContain(`Unsubscribe from reports: ${links.unsubscribeUrl}`);
    expect(text).not.toMatch(/<[a-z]+[ >]/i);
  });

  it('lists every account in the table in the given order, with one drawdown vocabulary', () => {
    const order = [...text.matchAll(/^\d+\. (.+)$/gm)].map((m) => m[1]);
    expect(order).toEqual(['hedge-book (0x9965…A4dc)', 'arb-desk (0x15d3…6A65)', 'bot-main (0xf39F…2266)', 'mm-eu (0x976E…0aa9) [stale data]', '0x14dC…9955']);
    expect(text).toContain('   Unavailable: the chain did not answer in time\n');
    expect(text).toContain('Drawdown (trading, flow-adjusted) now 11.80% · max drawdown reported by the chain (sampled, 30 days) 12.60%');
    expect(visible(html)).toContain('Drawdown (trading, flow-adjusted) is Portfolio Sentinel’s own figure');
    for (const row of digest.rows) if (row.trend) expect(html).toContain(`src="cid:${row.trend.cid}"`);
  });

  it("gives each account a section with its delegates' revoke links", () => {
    for (const section of digest.sections) for (const d of section.delegates) if (d.revokeUrl) expect(html).toContain(`href="${d.revokeUrl}"`);
    expect(text).toContain(`Revoke: ${revokeUrl(WEB_KEY)}`);
  });

  it('escapes a label containing markup in the table and the sections, and keeps it literal in text', () => {
    const view = {
      ...digest,
      rows: digest.rows.map((r) => ({ ...r, account: { ...r.account, label: XSS } })),
      sections: digest.sections.map((s) => ({ ...s, account: { ...s.account, label: XSS } })),
    };
    const out = renderEmail('digest', view, tz);
    expect(out.html).not.toContain('<script>');
    expect(out.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(out.text).toContain(XSS);
    expect(out.subject).toContain(XSS);
  });

  it('says how many rows and sections the HTML leaves out to the text part', () => {
    const out = renderEmail('digest', { ...digest, rows: digest.rows.slice(0, 3), moreRows: 2, sections: digest.sections.slice(0, 1), moreSections: 4 }, tz);
    expect(visible(out.html)).toContain('And 2 more accounts, listed in the plain-text part of this email.');
    expect(visible(out.html)).toContain('The sections of 4 more accounts, with their revoke links, are in the plain-text part of this email');
  });
});

describe('revoke all', () => {
  it('drawdown alerts and new-delegate notices show "Revoke all N API keys" only when given the link', () => {
    for (const [kind, view] of [
      ['drawdown-alert', drawdownAlert],
      ['new-delegate', newDelegate],
    ] as const) {
      const withLink = renderEmail(kind, view, tz);
      expect(visible(withLink.html)).toContain('Revoke all 2 API keys');
      expect(withLink.html).toContain('/revoke-all?token&#x3D;revoke-all-token');
      expect(withLink.text).toContain('Revoke all 2 API keys');
      expect(withLink.text).toContain('/revoke-all?token=revoke-all-token');
      const without = renderEmail(kind, { ...view, revokeAll: null }, tz);
      expect(without.text).not.toContain('Revoke all');
      expect(without.html).not.toContain('/revoke-all');
    }
    expect(renderEmail('drawdown-alert', { ...drawdownAlert, revokeAll: { url: 'https://sentinel.example/revoke-all?token=t', count: 1 } }, tz).text).toContain(
      'Revoke all 1 API key ',
    );
  });

  it('the result lists each delegate once with its outcome, escapes chain text, and says how many were not revoked', () => {
    const hostile = { ...revokeAllResult.rows[2]!, name: '<b>evil</b>', outcome: 'rejected' as const, text: 'refused by the chain: nonce <7>' };
    const view = { ...revokeAllResult, rows: [revokeAllResult.rows[0]!, revokeAllResult.rows[1]!, hostile], removed: 2 };
    const { subject, html, text } = renderEmail('revoke-all-result', view, tz);
    expect(subject).toBe('✗ 1 of 3 API keys not revoked on bot-main (0xf39F…2266)');
    for (const row of view.rows) expect(text.split(row.address)).toHaveLength(2);
    expect(text).toContain(`${view.rows[0]!.address}: revoked (nonce 41)`);
    expect(html).toContain('refused by the chain: nonce &lt;7&gt;');
    expect(html).not.toContain('<b>evil</b>');
    const all = renderEmail('revoke-all-result', { ...revokeAllResult, rows: revokeAllResult.rows.slice(0, 2), removed: 2 }, tz);
    expect(all.subject).toBe('✓ All 2 API keys revoked on bot-main (0xf39F…2266)');
    expect(visible(all.html)).toContain('Every key revoked');
  });
});
