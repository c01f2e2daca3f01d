import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers a send to one recipient. */
export type FakeSesReply = 'ok' | 'Throttling' | 'MessageRejected';

/** A stand-in SES endpoint (query protocol over real HTTP) for error paths the local SES cannot produce. */
export interface FakeSes {
  readonly endpoint: string;
  /** Recipients of every accepted `SendRawEmail`, in order. */
  readonly accepted: string[];
  /** Every request, accepted or not, by recipient. */
  readonly attempts: Map<string, number>;
  /** The `ConfigurationSetName` of every request in order (null when it names none). */
  readonly configurationSets: (string | null)[];
  stop(): Promise<void>;
}

/** Starts the stand-in; `decide` picks the answer for each request's first destination. */
export async function startFakeSes(decide: (recipient: string) => FakeSesReply): Promise<FakeSes> {
  const accepted: string[] = [];
  const attempts = new Map<string, number>();
  const configurationSets: (string | null)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const recipient = form.get('Destinations.member.1') ?? '';
      attempts.set(recipient, (attempts.get(recipient) ?? 0) + 1);
      configurationSets.push(form.get('ConfigurationSetName'));
      const reply = decide(recipient);
      if (reply === 'ok') {
        accepted.push(recipient);
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(
          `<SendRawEmailResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><SendRawEmailResult><MessageId>${randomUUID()}</MessageId></SendRawEmailResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></SendRawEmailResponse>`,
        );
        return;
      }
      res.writeHead(400, { 'content-type': 'text/xml' });
      res.end(
        `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${reply}</Code><Message>${reply} for this test</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted,
    attempts,
    configurationSets,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
