import { randomUUID } from 'node:crypto';
import { SESClient } from '@aws-sdk/client-ses';
import { simpleParser, type ParsedMail } from 'mailparser';
import { inject } from 'vitest';
import { ActionLinks } from '../../../functions/links/actionLinks';
import { LinkTokenCodec } from '../../../functions/links/linkToken';
import { createEmailRenderer, type EmailRenderer } from '../../../functions/mail/render/render';
import { SesSender } from '../../../functions/mail/send/sesSender';
import { memoryCounters, silentLog } from '../../../functions/shared/observability';
import { createRepositories, type Repositories } from '../../../functions/store/repositories';
import { sesRawMessage, sesStore } from '../sesStore';
import type { TestTables } from '../testTables';

export const LINK_SECRET = 'delivery-tests-link-secret-0123456789abcdef';
export const PUBLIC_BASE_URL = 'https://sentinel.test';
export const MAIL_FROM = 'sentinel@example.com';

/** Expiry far beyond any test clock, for items with a TTL. */
export const RETENTION_MS = 30 * 365 * 86_400_000;

let renderer: EmailRenderer | undefined;

/** One renderer per test file (templates compile once). */
export function sharedRenderer(): EmailRenderer {
  renderer ??= createEmailRenderer();
  return renderer;
}

/** Links signed with the tests' secret; `read` checks what a page would. */
export function testLinks(): ActionLinks {
  return new ActionLinks(new LinkTokenCodec(LINK_SECRET), PUBLIC_BASE_URL);
}

/** An SES client for `endpoint` (default: the run's local SES), without SDK retries so failures surface at once. */
export function sesSender(endpoint: string = inject('sesEndpoint'), maxAttempts = 1): SesSender {
  const client = new SESClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts });
  return new SesSender(client);
}

/** A mutable clock for services and repositories. */
export interface TestClock {
  now: () => number;
  set(ms: number): void;
}

export function testClock(start: number): TestClock {
  let t = start;
  return { now: () => t, set: (ms) => void (t = ms) };
}

/** The common ports of the mail services over the file's tables and the local SES. */
export function mailDeps(tables: TestTables, clock: TestClock, sender: SesSender = sesSender()) {
  const counters = memoryCounters();
  // Test clocks are set in the past; a long retention keeps DynamoDB Local's TTL sweeper off the delivery records.
  const repos: Repositories = createRepositories(tables.client, tables.prefix, { now: clock.now, retentionMs: RETENTION_MS });
  return {
    repos,
    sender,
    renderer: sharedRenderer(),
    links: testLinks(),
    mailFrom: MAIL_FROM,
    log: silentLog,
    counters,
    now: clock.now,
  };
}

/** A recipient address unique to one test (the SES store is shared by parallel files). */
export function uniqueEmail(tag: string): string {
  return `${tag}+${randomUUID().slice(0, 12)}@example.com`;
}

/** Every message sent to `recipient` through the local SES, parsed from its raw MIME (headers included), oldest first. */
export async function mailTo(recipient: string): Promise<ParsedMail[]> {
  const stored = await sesStore({ to: recipient });
  return Promise.all(stored.map(async (e) => simpleParser(await sesRawMessage(e.messageId), { keepCidLinks: true })));
}

/** A header's value, folded lines joined. */
export function header(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase());
  return line?.line
    .slice(line.line.indexOf(':') + 1)
    .replace(/\r?\n\s+/g, ' ')
    .trim();
}

/** The `token` query parameters of every link to `path` in `text`. */
export function linkTokens(text: string, path: string): string[] {
  const pattern = new RegExp(`${PUBLIC_BASE_URL.replace(/[.]/g, '\\.')}${path}\\?token=([A-Za-z0-9._%-]+)`, 'g');
  return [...new Set([...text.matchAll(pattern)].map((m) => decodeURIComponent(m[1] ?? '')))];
}
