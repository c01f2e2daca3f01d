import fc from 'fast-check';
import juice from 'juice';
import { describe, expect, it } from 'vitest';
import { inlineCss } from '../../../../functions/mail/css/inlineCss';
import { EmailRenderError } from '../../../../functions/mail/errors';
import { defaultTemplateRoot, loadTemplates } from '../../../../functions/mail/render/templates';
import type { EmailKind, EmailViews } from '../../../../functions/mail/render/views';
import { TIME_ZONE, dailyReport, delegateExpiry, drawdownAlert, newDelegate, revocationResult } from '../../../../local/mailSamples';

/** juice (what the renderer used before) with the renderer's former options: the reference the inliner must match. */
function juiceInline(html: string): string {
  return juice(html, {
    removeStyleTags: true,
    preserveMediaQueries: true,
    applyWidthAttributes: false,
    applyHeightAttributes: false,
    applyAttributesTableElements: true,
  });
}

/**
 * Makes two serializations of the same DOM comparable: juice re-serializes every tag (an empty
 * attribute value becomes a bare name) and pretty-prints the kept `@media` CSS; the inliner keeps
 * untouched tags and the CSS as written. Nothing else is normalized.
 */
function comparable(html: string): string {
  return html
    .replace(/<style([^>]*)>([\s\S]*?)<\/style>/g, (_m, attrs: string, css: string) => `<style${attrs}>${css.replace(/\s+/g, '')}</style>`)
    .replace(/ ([a-z][\w-]*)=""/g, ' $1');
}

const templates = loadTemplates(defaultTemplateRoot());
function rawHtml<K extends EmailKind>(kind: K, view: EmailViews[K]): string {
  return templates[kind].html({ ...view, timeZone: TIME_ZONE, subject: 'Subject' });
}

const variants: [string, () => string][] = [
  ['daily report', () => rawHtml('daily-report', dailyReport)],
  [
    'daily report, stale, no day, no drawdown, no delegates',
    () =>
      rawHtml('daily-report', {
        ...dailyReport,
        status: { state: 'stale', reason: 'no answer', lastPointAtMs: dailyReport.generatedAtMs - 3_600_000 },
        day: null,
        drawdown: null,
        delegates: [],
        removedDelegates: [],
        metrics: [],
        chart: null,
      }),
  ],
  [
    'daily report, failing, no revoke links',
    () =>
      rawHtml('daily-report', {
        ...dailyReport,
        status: { state: 'failing', reason: 'HTTP 503', lastPointAtMs: null },
        delegates: dailyReport.delegates.map((d) => ({ ...d, revokeUrl: null, expiryMs: null })),
      }),
  ],
  ['drawdown alert', () => rawHtml('drawdown-alert', drawdownAlert)],
  [
    'drawdown alert, repeat, chart, no snooze, no status link',
    () =>
      rawHtml('drawdown-alert', {
        ...drawdownAlert,
        repeat: true,
        snoozeLinks: [],
        chart: { cid: 'c@x', alt: 'chart', width: 544, height: 320 },
        links: { unsubscribeUrl: drawdownAlert.links.unsubscribeUrl, statusUrl: null },
      }),
  ],
  ['delegate expiry', () => rawHtml('delegate-expiry', delegateExpiry)],
  [
    'delegate expired, no signer',
    () => rawHtml('delegate-expiry', { ...delegateExpiry, phase: 'expired', delegate: { ...delegateExpiry.delegate, revokeUrl: null } }),
  ],
  ['new delegate', () => rawHtml('new-delegate', newDelegate)],
  [
    'new web session, no signer',
    () => rawHtml('new-delegate', { ...newDelegate, delegate: { ...newDelegate.delegate, kind: 'web-session', revokeUrl: null } }),
  ],
  ...(['revoked', 'already-revoked', 'unconfirmed', 'rejected', 'failed'] as const).map((outcome): [string, () => string] => [
    `revocation ${outcome}`,
    () => rawHtml('revocation-result', { ...revocationResult, outcome, chainMessage: outcome === 'revoked' ? null : 'nonce too low' }),
  ]),
];

describe('inlineCss on the email templates', () => {
  it.each(variants)('gives the same styles as juice: %s', (_name, raw) => {
    const html = raw();
    expect(comparable(inlineCss(html))).toBe(comparable(juiceInline(html)));
  });

  it('keeps only the media query in a style block, and styles the cells', () => {
    const html = inlineCss(rawHtml('daily-report', dailyReport));
    expect(html.match(/<style>[\s\S]*?<\/style>/g)).toEqual([
      expect.stringMatching(/^<style>\n@media only screen and \(max-width: 620px\) \{[\s\S]*\}\n<\/style>$/),
      // Outlook's own fonts for table cells, in a conditional comment the inliner leaves alone.
      '<style>td, th { font-family: Arial, sans-serif; }</style>',
    ]);
    expect(html).toContain('<!--[if mso]><style>td, th { font-family: Arial, sans-serif; }</style><![endif]-->');
    expect(html).toContain('<td class="card" style="background-color: #ffffff; padding: 20px 28px 28px 28px; border-radius: 0 0 8px 8px;" bgcolor="#ffffff">');
  });
});

describe('inlineCss', () => {
  const doc = (css: string, body: string) => `<html><head><style>${css}</style></head><body>${body}</body></html>`;
  const both = (css: string, body: string) => {
    const html = doc(css, body);
    const mine = inlineCss(html);
    expect(comparable(mine)).toBe(comparable(juiceInline(html)));
    return mine;
  };

  it('orders declarations by specificity, then source order; the style attribute beats rules, !important beats it', () => {
    const out = both(
      '.x { color: blue; margin: 1px } p { color: red; padding: 0 } p.x { margin: 2px } .y { margin: 3px !important }',
      '<p class="x y" style="color: green; margin: 9px">t</p>',
    );
    expect(out).toContain('<p class="x y" style="padding: 0; color: green; margin: 3px;">t</p>');
  });

  it('keeps repeated declarations of one rule (fallbacks) in order', () => {
    expect(both('div { width: 100px; width: 50%; }', '<div>t</div>')).toContain('<div style="width: 100px; width: 50%;">');
  });

  it('tells descendant from child selectors', () => {
    const out = both(
      '.a > b { color: red } .a i { color: blue } .a > i { font-weight: 700 }',
      '<div class="a"><b>1</b><span><b>2</b><i>3</i></span><i>4</i></div>',
    );
    expect(out).toContain(
      '<div class="a"><b style="color: red;">1</b><span><b>2</b><i style="color: blue;">3</i></span><i style="color: blue; font-weight: 700;">4</i></div>',
    );
  });

  it('mirrors alignment and backgrounds into table attributes', () => {
    const out = both(
      'td { text-align: right; vertical-align: top; background-color: #fff } td.g { background-color: #000 } table { background-image: url("a.png") }',
      '<table><tr><td class="g">1</td></tr></table>',
    );
    expect(out).toContain(
      '<table style="background-image: url(\'a.png\');" background="a.png"><tr><td class="g" style="text-align: right; vertical-align: top; background-color: #000;" align="right" valign="top" bgcolor="#000">',
    );
  });

  it('writes out the paragraph a table closes, and the empty one a stray </p> opens', () => {
    const out = both('p { margin: 0 } table { border: 0 }', '<p>a<table><tr><td>b</td></tr></table></p>');
    expect(out).toContain('<p style="margin: 0;">a</p><table style="border: 0;"><tr><td>b</td></tr></table><p style="margin: 0;"></p>');
  });

  it('removes a style block with nothing to keep, keeps @media verbatim, and leaves comments, title and doctype alone', () => {
    const html = `<!DOCTYPE html><html><head><title>.a <b class="a"></title><style>.a { color: red }</style><style>@media (max-width: 600px) { .a { color: blue !important; } }</style></head><body><!-- <b class="a"> --><b class="a">x</b></body></html>`;
    const out = inlineCss(html);
    expect(out).toBe(
      `<!DOCTYPE html><html><head><title>.a <b class="a"></title><style>\n@media (max-width: 600px) { .a { color: blue !important; } }\n</style></head><body><!-- <b class="a"> --><b class="a" style="color: red;">x</b></body></html>`,
    );
    expect(comparable(out)).toBe(comparable(juiceInline(html)));
  });

  it('returns a document without style blocks unchanged', () => {
    const html = '<p class="a">x</p>';
    expect(inlineCss(html)).toBe(html);
  });

  it.each([
    'a:hover { color: red }',
    'a[href] { color: red }',
    'p + p { margin: 0 }',
    'p::before { content: "x" }',
    '@import url(x.css);',
    'p { --c: red }',
    'p { color: var(--c) }',
    'p { color }',
  ])('refuses what it does not support: %s', (css) => {
    expect(() => inlineCss(doc(css, '<p>x</p>'))).toThrow(EmailRenderError);
  });

  it('matches juice on generated documents and stylesheets', () => {
    const tag = fc.constantFrom('div', 'span', 'p', 'td', 'b');
    const cls = fc.constantFrom('a', 'b', 'c');
    const compound = fc
      .record({ tag: fc.option(tag, { nil: undefined }), classes: fc.uniqueArray(cls, { maxLength: 2 }) })
      .map(({ tag: t, classes }) => (t ?? '') + classes.map((c) => `.${c}`).join('') || '*');
    const selector = fc
      .array(compound, { minLength: 1, maxLength: 3 })
      .chain((parts) =>
        fc
          .array(fc.constantFrom(' ', ' > '), { minLength: parts.length - 1, maxLength: parts.length - 1 })
          .map((combinators) => parts.map((p, i) => (i === 0 ? p : `${combinators[i - 1] ?? ' '}${p}`)).join('')),
      );
    const declaration = fc
      .tuple(fc.constantFrom('color', 'margin', 'text-align', 'background-color', 'padding'), fc.constantFrom('1px', 'red', 'left', '#fff'), fc.boolean())
      .map(([n, v, important]) => `${n}: ${v}${important ? ' !important' : ''}`);
    const rule = fc
      .tuple(fc.array(selector, { minLength: 1, maxLength: 2 }), fc.array(declaration, { minLength: 1, maxLength: 3 }))
      .map(([s, d]) => `${s.join(', ')} { ${d.join('; ')} }`);
    const element: fc.Memo<string> = fc.memo((depth) =>
      fc
        .tuple(
          fc.constantFrom('div', 'span', 'b'),
          fc.uniqueArray(cls, { maxLength: 3 }),
          fc.option(declaration, { nil: undefined }),
          depth > 1 ? fc.array(element(depth - 1), { maxLength: 3 }) : fc.constant([]),
        )
        .map(
          ([t, classes, style, children]) =>
            `<${t}${classes.length ? ` class="${classes.join(' ')}"` : ''}${style ? ` style="${style}"` : ''}>x${children.join('')}</${t}>`,
        ),
    );
    const table = fc
      .array(fc.uniqueArray(cls, { maxLength: 2 }), { minLength: 1, maxLength: 3 })
      .map((cells) => `<table><tr>${cells.map((c) => `<td class="${c.join(' ')}">y</td>`).join('')}</tr></table>`);
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 6 }),
        fc.array(fc.oneof(element(3), table, fc.constant('<p>z<table><tr><td>w</td></tr></table></p>')), { minLength: 1, maxLength: 3 }),
        (rules, body) => {
          const html = doc(rules.join('\n'), body.join(''));
          expect(comparable(inlineCss(html))).toBe(comparable(juiceInline(html)));
        },
      ),
      { numRuns: 150 },
    );
  });
});
