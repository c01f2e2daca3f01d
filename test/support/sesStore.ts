import { inject } from 'vitest';
import * as z from 'zod';
import { networkErrorCode } from '../../functions/chain/networkFailure';

const addressList = z.array(z.string());

/** One message as the local SES store lists it (raw mail is parsed; its headers are not kept). */
export const storedEmailSchema = z.looseObject({
  messageId: z.string(),
  from: z.string(),
  destination: z.object({ to: addressList, cc: addressList, bcc: addressList }),
  subject: z.string(),
  body: z.object({ html: z.string().optional(), text: z.string().optional() }),
  attachments: z.array(z.looseObject({ contentType: z.string(), content: z.string(), filename: z.string().optional() })),
  /** Epoch seconds. */
  at: z.number(),
});
export type StoredEmail = z.infer<typeof storedEmailSchema>;

const storeSchema = z.looseObject({ emails: z.array(storedEmailSchema) });

/**
 * Mail sent to the run's local SES endpoint, oldest first; `to` keeps only mail with that
 * recipient (use a recipient unique to your test: files run in parallel and share the store).
 */
export async function sesStore(filter: { to?: string } = {}): Promise<StoredEmail[]> {
  const res = await getOnce(`${inject('sesEndpoint')}/store`);
  if (!res.ok) throw new Error(`GET /store answered ${res.status}`);
  const { emails } = storeSchema.parse(await res.json());
  const to = filter.to?.toLowerCase();
  if (to === undefined) return emails;
  return emails.filter((e) => [...e.destination.to, ...e.destination.cc, ...e.destination.bcc].some((a) => a.toLowerCase().includes(to)));
}

/** The raw MIME of a message sent with `SendRawEmail`, headers included, by its SES message id. */
export async function sesRawMessage(messageId: string): Promise<Buffer> {
  const res = await getOnce(`${inject('sesEndpoint')}/raw/${encodeURIComponent(messageId)}`);
  if (!res.ok) throw new Error(`GET /raw/${messageId} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** Empties the store. It is shared by test files running in parallel: prefer filtering by recipient. */
export async function clearSesStore(): Promise<void> {
  const res = await fetch(`${inject('sesEndpoint')}/clear-store`, { method: 'POST' });
  if (!res.ok) throw new Error(`POST /clear-store answered ${res.status}`);
}

/**
 * A GET, tried again once when the kept-alive socket it went out on was closed by the server at
 * that moment (`UND_ERR_SOCKET`, "other side closed"): a race of keep-alive timeouts under load,
 * not an answer. A GET of the store changes nothing, so trying it again is safe.
 */
async function getOnce(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (error) {
    const code = networkErrorCode(error);
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return fetch(url);
  }
}
