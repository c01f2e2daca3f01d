import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { EmailRenderError } from './errors';
import { base64Lines, foldedHeader, mailbox, quotedPrintable, textHeader } from './mimeEncoding';

const noLineBreaks = (what: string) => z.string().refine((s) => !/[\r\n]/.test(s), `${what} must be a single line`);
const cid = z.string().regex(/^[A-Za-z0-9._-]{1,64}(@[A-Za-z0-9.-]{1,190})?$/, 'not a valid content id');

/** An inline image attached to the HTML part and referenced from it as `cid:<cid>`. */
export const inlineImageSchema = z.object({
  cid,
  filename: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, ".", "_" and "-" only'),
  contentType: z.literal('image/png'),
  content: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'must be bytes'),
});
export type InlineImage = z.infer<typeof inlineImageSchema>;

/** Everything a message is built from. */
export const outgoingEmailSchema = z.object({
  /** `sentinel@example.com` or `Portfolio Sentinel <sentinel@example.com>`. */
  from: noLineBreaks('from').pipe(z.string().regex(/^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'not an address')),
  to: z.array(z.email()).min(1, 'at least one recipient'),
  subject: noLineBreaks('subject').pipe(z.string().min(1).max(998)),
  html: z.string().min(1),
  text: z.string().min(1),
  /** Target of `List-Unsubscribe` (one-click, RFC 8058: the endpoint must accept a POST). */
  unsubscribeUrl: z.url({ protocol: /^https?$/ }),
  /** Optional `mailto:` alternative for `List-Unsubscribe`. */
  unsubscribeMailto: z.email().optional(),
  /** Stable id of the alert event, sent as `X-Sentinel-Event-Id` and seeding the Message-ID. */
  eventId: z.string().regex(/^[A-Za-z0-9._:#/+=-]{1,200}$/, 'letters, digits and ._:#/+=- only, at most 200'),
  inlineImages: z.array(inlineImageSchema).default([]),
  /** Defaults to one derived from `eventId` and the recipients, so a resend carries the same id. */
  messageId: z.string().regex(/^<[^<>\s@]+@[^<>\s@]+>$/, 'must look like <id@domain>').optional(),
  /** The `Date` header; defaults to now. */
  date: z.date().optional(),
});
/** Input of {@link buildMime}. */
export type OutgoingEmail = z.input<typeof outgoingEmailSchema>;

function domainOf(from: string): string {
  return /@([^<>@\s]+?)>?$/.exec(from)?.[1] ?? 'localhost';
}

/** The deterministic Message-ID for an event sent to a set of recipients. */
export function messageIdFor(eventId: string, to: readonly string[], from: string): string {
  const digest = createHash('sha256').update(`${eventId}\n${[...to].sort().join(',')}`).digest('hex').slice(0, 32);
  return `<${digest}.sentinel@${domainOf(from)}>`;
}

/** RFC 5322 date, e.g. `Tue, 04 Mar 2025 07:00:05 +0000`. */
function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

/** A MIME part: its header lines and its encoded body. */
interface Part {
  readonly headers: readonly string[];
  readonly body: string;
}

function multipart(type: string, parts: readonly Part[], extra = ''): Part {
  const boundary = `----=_sentinel_${randomBytes(12).toString('hex')}`;
  const body = [...parts.map((p) => `--${boundary}\r\n${[...p.headers, '', p.body].join('\r\n')}`), `--${boundary}--`, ''].join('\r\n');
  return { headers: [foldedHeader('Content-Type', [`multipart/${type};${extra}`, `boundary="${boundary}"`])], body };
}

function textPart(subtype: 'plain' | 'html', text: string): Part {
  return { headers: [`Content-Type: text/${subtype}; charset=utf-8`, 'Content-Transfer-Encoding: quoted-printable'], body: quotedPrintable(text) };
}

function imagePart(image: InlineImage): Part {
  return {
    headers: [
      `Content-Type: ${image.contentType}; name="${image.filename}"`,
      `Content-ID: <${image.cid}>`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: inline; filename="${image.filename}"`,
    ],
    body: base64Lines(image.content),
  };
}

/**
 * Builds the raw MIME message: multipart/alternative of the text part and (with inline images) a
 * multipart/related holding the HTML and its inline CID images, text in UTF-8 quoted-printable,
 * images in base64. Adds `List-Unsubscribe` (the URL, plus a mailto when given),
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`, `X-Sentinel-Event-Id`, `Auto-Submitted`
 * and a Message-ID. Throws `EmailRenderError` on invalid input, including an HTML `cid:`
 * reference without its image.
 */
export async function buildMime(email: OutgoingEmail): Promise<Buffer> {
  const parsed = outgoingEmailSchema.safeParse(email);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EmailRenderError(`email ${issue?.path.join('.') || 'input'}: ${issue?.message ?? 'invalid'}`, { cause: parsed.error });
  }
  const m = parsed.data;
  const attached = new Set(m.inlineImages.map((i) => i.cid));
  for (const [, ref] of m.html.matchAll(/["']cid:([^"']+)["']/g)) {
    if (!attached.has(ref ?? '')) throw new EmailRenderError(`email html: references cid:${ref ?? ''} but no such inline image is attached`);
  }
  const listUnsubscribe = [`<${m.unsubscribeUrl}>`, ...(m.unsubscribeMailto ? [`<mailto:${m.unsubscribeMailto}?subject=unsubscribe>`] : [])];
  const html = textPart('html', m.html);
  const content = multipart('alternative', [
    textPart('plain', m.text),
    m.inlineImages.length === 0 ? html : multipart('related', [html, ...m.inlineImages.map(imagePart)], ' type="text/html";'),
  ]);
  const headers = [
    foldedHeader('From', mailbox(m.from).split(' ')),
    foldedHeader('To', m.to.map((to, i) => (i < m.to.length - 1 ? `${to},` : to))),
    textHeader('Subject', m.subject),
    `Message-ID: ${m.messageId ?? messageIdFor(m.eventId, m.to, m.from)}`,
    `Date: ${rfc5322Date(m.date ?? new Date())}`,
    foldedHeader('List-Unsubscribe', listUnsubscribe.map((l, i) => (i < listUnsubscribe.length - 1 ? `${l},` : l))),
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    `X-Sentinel-Event-Id: ${m.eventId}`,
    'Auto-Submitted: auto-generated',
    'MIME-Version: 1.0',
    ...content.headers,
  ];
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${content.body}`, 'utf8');
}
