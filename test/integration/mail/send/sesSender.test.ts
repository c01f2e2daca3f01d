import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SESClient } from '@aws-sdk/client-ses';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as z from 'zod';
import { renderChartPng } from '../../../../functions/mail/chart/chart';
import { EmailSendError } from '../../../../functions/mail/errors';
import { buildMime } from '../../../../functions/mail/send/mime';
import { renderEmail } from '../../../../functions/mail/render/render';
import { SesSender } from '../../../../functions/mail/send/sesSender';
import { loadSettings } from '../../../../functions/config/settings';
import { sesSenderFrom } from '../../../../functions/runtime/factories';
import { startFakeSes } from '../../../support/delivery/fakeSes';
import { freePort } from '../../../../local/freePort';
import { startSesLocal } from '../../../../local/ses';
import { storedEmailSchema } from '../../../support/sesStore';
import { TIME_ZONE, curves, dailyReport, links } from '../../../../local/mailSamples';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const sesClient = (endpoint: string, maxAttempts = 3): SESClient => new SESClient({ endpoint, region: 'us-east-1', credentials, maxAttempts });

// The run's shared endpoint when globalSetup provides one; otherwise this file starts its own.
let endpoint: string;
let stopOwn: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const provided = z
    .string()
    .url()
    .optional()
    .parse((inject as (key: string) => unknown)('sesEndpoint'));
  if (provided) {
    endpoint = provided;
  } else {
    const ses = await startSesLocal();
    endpoint = ses.endpoint;
    stopOwn = ses.stop;
  }
});

afterAll(async () => {
  await stopOwn?.();
});

async function storedById(messageId: string) {
  const res = await fetch(`${endpoint}/store`);
  expect(res.ok).toBe(true);
  const { emails } = z.object({ emails: z.array(storedEmailSchema) }).parse(await res.json());
  return emails.find((e) => e.messageId === messageId);
}

describe('sending through a real local SES endpoint', () => {
  it('delivers the daily report with its inline chart and returns the SES message id', async () => {
    const recipient = `owner+${randomUUID()}@example.com`;
    const rendered = renderEmail('daily-report', dailyReport, { timeZone: TIME_ZONE });
    const chart = renderChartPng({ ...curves(7), timeZone: TIME_ZONE });
    const raw = await buildMime({
      from: 'Portfolio Sentinel <sentinel@example.com>',
      to: [recipient],
      ...rendered,
      unsubscribeUrl: links.unsubscribeUrl,
      eventId: `daily-report#${randomUUID()}`,
      inlineImages: [{ cid: dailyReport.chart?.cid ?? '', filename: 'chart.png', contentType: 'image/png', content: chart }],
    });

    const { messageId } = await new SesSender(sesClient(endpoint)).send({ raw, destinations: [recipient] });
    expect(messageId).toMatch(/\S/);

    const stored = await storedById(messageId);
    expect(stored?.subject).toBe(rendered.subject);
    expect(stored?.destination.to).toEqual([recipient]);
    expect(stored?.body.text?.trim()).toBe(rendered.text.trim());
    expect(stored?.body.html).toContain('$110,734.56');
    expect(stored?.attachments.map((a) => a.contentType)).toEqual(['image/png']);
    expect(Buffer.from(stored?.attachments[0]?.content ?? '', 'base64').equals(chart)).toBe(true);

    // The store drops headers; the launcher's proxy keeps the raw message.
    const rawBack = await fetch(`${endpoint}/raw/${encodeURIComponent(messageId)}`);
    if (rawBack.status !== 404) {
      const parsed = await simpleParser(Buffer.from(await rawBack.arrayBuffer()), { keepCidLinks: true });
      const header = (name: string) => parsed.headerLines.find((h) => h.key === name)?.line;
      expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${links.unsubscribeUrl}>`);
      expect(parsed.html).toContain(`src="cid:${dailyReport.chart?.cid ?? ''}"`);
      expect(parsed.attachments[0]?.cid).toBe(dailyReport.chart?.cid);
    }
  });

  it('reports a message the endpoint refuses as a permanent failure', async () => {
    // No From header and no envelope sender: the local endpoint answers 400.
    const raw = Buffer.from('To: someone@example.com\r\nSubject: x\r\n\r\nbody\r\n');
    const error = await new SesSender(sesClient(endpoint, 1)).send({ raw, destinations: ['someone@example.com'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailSendError);
    expect((error as EmailSendError).retryable).toBe(false);
    expect((error as EmailSendError).cause).toBeDefined();
  });

  it('refuses to send to nobody', async () => {
    await expect(new SesSender(sesClient(endpoint)).send({ raw: Buffer.from('x'), destinations: [] })).rejects.toMatchObject({
      code: 'NoRecipients',
      retryable: false,
    });
  });
});

describe('classifying SES failures', () => {
  // A stand-in SES that answers every request with one fixed query-protocol error.
  let server: Server;
  let reply: { status: number; code: string; message: string };
  let fakeEndpoint: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(reply.status, { 'content-type': 'text/xml' });
        res.end(
          `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${reply.code}</Code><Message>${reply.message}</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fakeEndpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = async (): Promise<EmailSendError> => {
    const error = await new SesSender(sesClient(fakeEndpoint, 1))
      .send({ raw: Buffer.from('From: a@example.com\r\n\r\nx'), destinations: ['owner@example.com'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailSendError);
    return error as EmailSendError;
  };

  it.each([
    { status: 400, code: 'Throttling', message: 'Maximum sending rate exceeded.', retryable: true },
    { status: 503, code: 'ServiceUnavailable', message: 'Service is unavailable.', retryable: true },
    { status: 500, code: 'InternalFailure', message: 'Internal error.', retryable: true },
    { status: 400, code: 'MessageRejected', message: 'Email address is not verified.', retryable: false },
    { status: 400, code: 'AccountSendingPausedException', message: 'Sending is paused for this account.', retryable: false },
    { status: 400, code: 'MailFromDomainNotVerifiedException', message: 'Domain not verified.', retryable: false },
  ])('HTTP $status $code → retryable: $retryable', async ({ status, code, message, retryable }) => {
    reply = { status, code, message };
    const error = await send();
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(retryable);
    expect(error.cause).toBeDefined();
  });

  it('never puts addresses into the error message or detail', async () => {
    reply = { status: 400, code: 'MessageRejected', message: 'Email address is not verified: owner@example.com, see https://x.example/t?token=abc' };
    const error = await send();
    expect(error.message).not.toContain('@');
    expect(error.detail).toBe('Email address is not verified: <address>, see <link>');
  });

  it("names the stage's configuration set on every send, as the functions build their sender, and the local SES accepts it", async () => {
    const settings = (ses: string) => loadSettings({ SES_ENDPOINT: ses, SES_CONFIGURATION_SET: 'sentinel-devnet-mail' });
    const raw = (to: string) => Buffer.from(`From: sentinel@example.com\r\nTo: ${to}\r\nSubject: set\r\n\r\nbody\r\n`);
    const fake = await startFakeSes(() => 'ok');
    try {
      await sesSenderFrom(settings(fake.endpoint)).send({ raw: raw('a@example.com'), destinations: ['a@example.com'] });
      await sesSenderFrom(loadSettings({ SES_ENDPOINT: fake.endpoint })).send({ raw: raw('b@example.com'), destinations: ['b@example.com'] });
    } finally {
      await fake.stop();
    }
    // Without SES_CONFIGURATION_SET (local runs) the request names none: the identity's default applies in AWS.
    expect(fake.configurationSets).toEqual(['sentinel-devnet-mail', null]);
    const recipient = `set+${randomUUID()}@example.com`;
    const { messageId } = await sesSenderFrom(settings(endpoint)).send({ raw: raw(recipient), destinations: [recipient] });
    expect((await storedById(messageId))?.destination.to).toEqual([recipient]);
  });

  it('treats an unreachable endpoint as retryable', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const error = await new SesSender(sesClient(closed, 1))
      .send({ raw: Buffer.from('From: a@example.com\r\n\r\nx'), destinations: ['owner@example.com'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailSendError);
    expect((error as EmailSendError).retryable).toBe(true);
  });
});
