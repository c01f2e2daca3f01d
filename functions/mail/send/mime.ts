import { createHash } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import * as z from 'zod';
import { EmailRenderError } from '../errors';
import { firstIssue } from '../../shared/firstIssue';

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
  /**
   * Target of `List-Unsubscribe` (when one-click, RFC 8058: the endpoint must accept a POST).
   * Omitted only for mail to the operator (no list to leave): then no `List-Unsubscribe` header.
   */
  unsubscribeUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Sends `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (default); `false` when the link opens a page instead. */
  oneClickUnsubscribe: z.boolean().default(true),
  /** Optional `mailto:` alternative for `List-Unsubscribe`. */
  unsubscribeMailto: z.email().optional(),
  /** Stable id of the alert event, sent as `X-Sentinel-Event-Id` and seeding the Message-ID. */
  eventId: z.string().regex(/^[A-Za-z0-9._:#/+=-]{1,200}$/, 'letters, digits and ._:#/+=- only, at most 200'),
  inlineImages: z.array(inlineImageSchema).default([]),
  /** Defaults to one derived from `eventId` and the recipients, so a resend carries the same id. */
  messageId: z
    .string()
    .regex(/^<[^<>\s@]+@[^<>\s@]+>$/, 'must look like <id@domain>')
    .optional(),
  /** The `Date` header; defaults to the wall clock (callers with a clock pass theirs). */
  date: z.date().optional(),
});
/** Input of {@link buildMime}. */
export type OutgoingEmail = z.input<typeof outgoingEmailSchema>;

function domainOf(from: string): string {
  return /@([^<>@\s]+?)>?$/.exec(from)?.[1] ?? 'localhost';
}

/** The deterministic Message-ID for an event sent to a set of recipients. */
export function messageIdFor(eventId: string, to: readonly string[], from: string): string {
  const digest = createHash('sha256')
    .update(`${eventId}\n${[...to].sort().join(',')}`)
    .digest('hex')
    .slice(0, 32);
  return `<${digest}.sentinel@${domainOf(from)}>`;
}

/**
 * Builds the raw MIME message with nodemailer's MailComposer: multipart/alternative of the text
 * part and a multipart/related holding the HTML and its inline CID images. Adds `List-Unsubscribe`
 * (the URL, plus a mailto when given), `List-Unsubscribe-Post: List-Unsubscribe=One-Click`,
 * `X-Sentinel-Event-Id` and a Message-ID. Throws `EmailRenderError` on invalid input, including
 * an HTML `cid:` reference without its image.
 */
export async function buildMime(email: OutgoingEmail): Promise<Buffer> {
  const parsed = outgoingEmailSchema.safeParse(email);
  if (!parsed.success) {
    throw new EmailRenderError(`email ${firstIssue(parsed.error, 'input')}`, { cause: parsed.error });
  }
  const m = parsed.data;
  const attached = new Set(m.inlineImages.map((i) => i.cid));
  for (const [, ref] of m.html.matchAll(/["']cid:([^"']+)["']/g)) {
    if (!attached.has(ref ?? '')) throw new EmailRenderError(`email html: references cid:${ref ?? ''} but no such inline image is attached`);
  }
  const listUnsubscribe = [
    ...(m.unsubscribeUrl ? [`<${m.unsubscribeUrl}>`] : []),
    ...(m.unsubscribeMailto ? [`<mailto:${m.unsubscribeMailto}?subject=unsubscribe>`] : []),
  ];
  const composer = new MailComposer({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId: m.messageId ?? messageIdFor(m.eventId, m.to, m.from),
    date: m.date ?? new Date(),
    headers: {
      ...(listUnsubscribe.length > 0 ? { 'List-Unsubscribe': listUnsubscribe.join(', ') } : {}),
      ...(m.oneClickUnsubscribe && m.unsubscribeUrl ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
      'X-Sentinel-Event-Id': m.eventId,
      'Auto-Submitted': 'auto-generated',
    },
    attachments: m.inlineImages.map((image) => ({
      cid: image.cid,
      filename: image.filename,
      contentType: image.contentType,
      content: Buffer.from(image.content),
      contentDisposition: 'inline' as const,
    })),
  });
  return composer.compile().build();
}
