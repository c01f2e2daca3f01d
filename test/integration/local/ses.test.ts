import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESClient, SendRawEmailCommand } from '@aws-sdk/client-ses';
import { inject } from 'vitest';
import { isProcessAlive } from '../../../local/childProcess';
import { startSesLocal } from '../../../local/ses';
import { sesRawMessage, sesStore } from '../../support/sesStore';

function sesClient(endpoint: string): SESClient {
  return new SESClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

function rawMail(to: string, subject: string, body = 'Equity is up.'): Uint8Array {
  const lines = [
    'From: Sentinel <sentinel@localhost.localdomain>',
    `To: ${to}`,
    `Subject: ${subject}`,
    'List-Unsubscribe: <https://sentinel.example/u/abc>',
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ];
  return Buffer.from(lines.join('\r\n'));
}

describe('startSesLocal', () => {
  it('with a store file, a restart on the same port keeps the inbox; clearing it empties the file too', async () => {
    const storeFile = join(mkdtempSync(join(tmpdir(), 'ses-store-')), 'inbox.jsonl');
    let ses = await startSesLocal({ storeFile });
    const port = Number(new URL(ses.endpoint).port);
    const subjects = async () => ((await (await fetch(`${ses.endpoint}/store`)).json()) as { emails: { subject: string }[] }).emails.map((e) => e.subject);
    try {
      const client = sesClient(ses.endpoint);
      for (const subject of ['First', 'Second']) await client.send(new SendRawEmailCommand({ RawMessage: { Data: rawMail('kept@example.com', subject) } }));
      client.destroy();
      await ses.stop();
      ses = await startSesLocal({ storeFile, port });
      expect(await subjects()).toEqual(['First', 'Second']);
      expect((await fetch(`${ses.endpoint}/clear-store`, { method: 'POST' })).ok).toBe(true);
      await ses.stop();
      ses = await startSesLocal({ storeFile, port });
      expect(await subjects()).toEqual([]);
    } finally {
      await ses.stop();
    }
  });

  it('accepts mail, lists it at /store, keeps the raw MIME, serves the inbox, and stops its process', async () => {
    const ses = await startSesLocal();
    try {
      const client = sesClient(ses.endpoint);
      const { MessageId } = await client.send(new SendRawEmailCommand({ RawMessage: { Data: rawMail('owner@example.com', 'Daily report') } }));
      client.destroy();
      expect(MessageId).toMatch(/^ses-/);

      const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as { emails: { messageId: string; subject: string }[] };
      expect(store.emails.map((e) => [e.messageId, e.subject])).toEqual([[MessageId, 'Daily report']]);
      const raw = await (await fetch(`${ses.endpoint}/raw/${MessageId}`)).text();
      expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      expect((await fetch(`${ses.endpoint}/raw/ses-000`)).status).toBe(404);

      const inbox = await fetch(ses.inboxUrl);
      expect(inbox.headers.get('content-type')).toMatch(/text\/html/);

      expect((await fetch(`${ses.endpoint}/clear-store`, { method: 'POST' })).ok).toBe(true);
      expect(((await (await fetch(`${ses.endpoint}/store`)).json()) as { emails: unknown[] }).emails).toEqual([]);
      expect((await fetch(`${ses.endpoint}/raw/${MessageId}`)).status).toBe(404);
    } finally {
      await ses.stop();
    }
    expect(isProcessAlive(ses.pid)).toBe(false);
    await expect(fetch(`${ses.endpoint}/store`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  });
});

describe('startSesLocal keeps its store bounded', () => {
  it('keeps only the newest emails (and their raw MIME) beyond maxEmails', async () => {
    const ses = await startSesLocal({ maxEmails: 5 });
    try {
      const client = sesClient(ses.endpoint);
      const ids: string[] = [];
      for (let i = 1; i <= 8; i++) {
        const { MessageId } = await client.send(new SendRawEmailCommand({ RawMessage: { Data: rawMail('owner@example.com', `mail ${i}`) } }));
        ids.push(MessageId ?? '');
      }
      client.destroy();
      const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as { emails: { subject: string }[] };
      expect(store.emails.map((e) => e.subject)).toEqual(['mail 4', 'mail 5', 'mail 6', 'mail 7', 'mail 8']);
      expect((await fetch(`${ses.endpoint}/raw/${ids[0]}`)).status).toBe(404);
      expect((await fetch(`${ses.endpoint}/raw/${ids[7]}`)).status).toBe(200);
    } finally {
      await ses.stop();
    }
  });

  it('drops the oldest mail beyond maxStoreBytes', async () => {
    const ses = await startSesLocal({ maxStoreBytes: 3.5 * 1024 * 1024 });
    try {
      const body = `${'x'.repeat(999)}\r\n`.repeat(1_050);
      const client = sesClient(ses.endpoint);
      for (let i = 1; i <= 6; i++) await client.send(new SendRawEmailCommand({ RawMessage: { Data: rawMail('owner@example.com', `big ${i}`, body) } }));
      client.destroy();
      const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as { emails: { subject: string }[] };
      expect(store.emails.map((e) => e.subject)).toEqual(['big 4', 'big 5', 'big 6']);
    } finally {
      await ses.stop();
    }
  });
});

describe('the run-wide local SES (test harness)', () => {
  it('lets a test find its own mail by recipient, with the raw message', async () => {
    const to = `harness-${randomUUID()}@example.com`;
    const client = sesClient(inject('sesEndpoint'));
    const { MessageId } = await client.send(new SendRawEmailCommand({ RawMessage: { Data: rawMail(to, 'Drawdown alert') } }));
    client.destroy();
    const mine = await sesStore({ to });
    expect(mine.map((e) => [e.messageId, e.subject])).toEqual([[MessageId, 'Drawdown alert']]);
    expect((await sesRawMessage(MessageId ?? '')).toString('utf8')).toContain(`To: ${to}`);
  });
});
