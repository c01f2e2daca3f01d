import { simpleParser, type ParsedMail } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderChartPng } from '../../../../functions/mail/chart/chart';
import { EmailRenderError } from '../../../../functions/mail/errors';
import { buildMime, messageIdFor, type OutgoingEmail } from '../../../../functions/mail/send/mime';
import { renderEmail } from '../../../../functions/mail/render/render';
import { TIME_ZONE, curves, dailyReport, drawdownAlert, links } from '../../../../local/mailSamples';

const CID = dailyReport.chart?.cid ?? '';

function headerText(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase());
  return line
    ? line.line
        .slice(line.line.indexOf(':') + 1)
        .replace(/\r?\n\s+/g, ' ')
        .trim()
    : '';
}

describe('the daily report as MIME', () => {
  const rendered = renderEmail('daily-report', dailyReport, { timeZone: TIME_ZONE });
  const chart = renderChartPng({ ...curves(30), timeZone: TIME_ZONE });
  const email: OutgoingEmail = {
    from: 'Portfolio Sentinel <sentinel@example.com>',
    to: ['owner@example.com', 'ops@example.com'],
    ...rendered,
    unsubscribeUrl: links.unsubscribeUrl,
    unsubscribeMailto: 'unsubscribe@example.com',
    eventId: 'daily-report#0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266#2025-03-03',
    inlineImages: [{ cid: CID, filename: 'chart.png', contentType: 'image/png', content: chart }],
    date: new Date('2025-03-04T07:00:05Z'),
  };
  let raw: Buffer;
  let mail: ParsedMail;

  beforeAll(async () => {
    raw = await buildMime(email);
    mail = await simpleParser(raw, { keepCidLinks: true });
  });

  it('keeps subject, sender, recipients and date', () => {
    expect(mail.subject).toBe(rendered.subject);
    expect(mail.from?.value[0]?.address).toBe('sentinel@example.com');
    const to = Array.isArray(mail.to) ? mail.to.flatMap((a) => a.value) : (mail.to?.value ?? []);
    expect(to.map((a) => a.address)).toEqual(['owner@example.com', 'ops@example.com']);
    expect(mail.date?.toISOString()).toBe('2025-03-04T07:00:05.000Z');
  });

  it('has the text and HTML parts', () => {
    expect(mail.text?.trim()).toBe(rendered.text.trim());
    expect(mail.html).toBe(rendered.html);
  });

  it('nests the parts as alternative → (text, related → (html, image))', () => {
    const head = raw.toString('latin1');
    expect(head).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(head).toMatch(/^Content-Type: multipart\/related; type="text\/html";/m);
    expect(head.indexOf('Content-Type: text/plain')).toBeLessThan(head.indexOf('Content-Type: multipart/related'));
    expect(head.indexOf('Content-Type: text/html')).toBeLessThan(head.indexOf('Content-Type: image/png'));
  });

  it('attaches the chart inline by CID, referenced from the HTML', () => {
    expect(mail.attachments).toHaveLength(1);
    const [image] = mail.attachments;
    expect(image?.contentType).toBe('image/png');
    expect(image?.contentDisposition).toBe('inline');
    expect(image?.cid).toBe(CID);
    expect(image?.content.equals(chart)).toBe(true);
    expect(rendered.html).toContain(`src="cid:${CID}"`);
  });

  it('carries RFC 8058 one-click unsubscribe headers', () => {
    expect(headerText(mail, 'List-Unsubscribe')).toBe(`<${links.unsubscribeUrl}>, <mailto:unsubscribe@example.com?subject=unsubscribe>`);
    expect(headerText(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('carries the event id and a Message-ID derived from it', () => {
    expect(headerText(mail, 'X-Sentinel-Event-Id')).toBe(email.eventId);
    expect(mail.messageId).toBe(messageIdFor(email.eventId, email.to, email.from));
    expect(mail.messageId).toMatch(/^<[0-9a-f]{32}\.sentinel@example\.com>$/);
  });
});

describe('Message-ID', () => {
  it('is stable for an event and its recipients, and differs otherwise', () => {
    const a = messageIdFor('evt-1', ['a@x.io', 'b@x.io'], 'sentinel@example.com');
    expect(messageIdFor('evt-1', ['b@x.io', 'a@x.io'], 'sentinel@example.com')).toBe(a);
    expect(messageIdFor('evt-2', ['a@x.io', 'b@x.io'], 'sentinel@example.com')).not.toBe(a);
    expect(messageIdFor('evt-1', ['a@x.io'], 'sentinel@example.com')).not.toBe(a);
  });
});

describe('a message without images', () => {
  it('is plain multipart/alternative with the headers', async () => {
    const rendered = renderEmail('drawdown-alert', drawdownAlert, { timeZone: TIME_ZONE });
    const raw = await buildMime({
      from: 'sentinel@example.com',
      to: ['owner@example.com'],
      ...rendered,
      unsubscribeUrl: links.unsubscribeUrl,
      eventId: 'dd-10',
    });
    const mail = await simpleParser(raw, { keepCidLinks: true });
    expect(mail.attachments).toHaveLength(0);
    expect(mail.subject).toBe('⚠ Drawdown 10% reached on bot-main (0xf39F…2266)');
    expect(headerText(mail, 'List-Unsubscribe')).toBe(`<${links.unsubscribeUrl}>`);
    expect(headerText(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(raw.toString('latin1')).not.toContain('multipart/related');
  });
});

describe('invalid input', () => {
  const base: OutgoingEmail = {
    from: 'sentinel@example.com',
    to: ['owner@example.com'],
    subject: 'Hello',
    html: '<p>hi</p>',
    text: 'hi',
    unsubscribeUrl: links.unsubscribeUrl,
    eventId: 'evt-1',
  };

  const cases: [string, Partial<OutgoingEmail>, RegExp][] = [
    ['a subject with a line break', { subject: 'Hi\r\nBcc: victim@example.com' }, /subject/],
    ['an event id with a line break', { eventId: 'evt\r\nX-Evil: 1' }, /eventId/],
    ['no recipients', { to: [] }, /to/],
    ['a non-http unsubscribe link', { unsubscribeUrl: 'javascript:alert(1)' }, /unsubscribeUrl/],
    ['an HTML cid reference without its image', { html: '<img src="cid:missing">' }, /cid:missing/],
  ];
  it.each(cases)('refuses %s', async (_name, patch, message) => {
    await expect(buildMime({ ...base, ...patch })).rejects.toThrow(EmailRenderError);
    await expect(buildMime({ ...base, ...patch })).rejects.toThrow(message);
  });
});
