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

/** Seconds of `at` fetched again on each look (the store stamps mail in whole seconds). */
const OVERLAP_S = 5;

/**
 * This worker's copy of each store it looked at, by endpoint, oldest first: each look fetches
 * only the mail stamped since the newest it holds (the store's `since`), not the whole store,
 * whose listing grows through a run (attachments included: 12 MB and 3-6 s a look by mid-run).
 */
const mirrors = new Map<string, { emails: StoredEmail[]; ids: Set<string> }>();

/**
 * Mail sent to the run's local SES endpoint, oldest first; `to` keeps only mail with that
 * recipient (use a recipient unique to your test: files run in parallel and share the store).
 * Mail the store has since dropped (beyond its cap) may still be listed.
 */
export async function sesStore(filter: { to?: string } = {}): Promise<StoredEmail[]> {
  const endpoint = inject('sesEndpoint');
  const mirror = mirrors.get(endpoint) ?? { emails: [], ids: new Set<string>() };
  mirrors.set(endpoint, mirror);
  const newest = mirror.emails.at(-1)?.at;
  const res = await getOnce(`${endpoint}/store${newest === undefined ? '' : `?since=${Math.max(0, newest - OVERLAP_S)}`}`);
  if (!res.ok) throw new Error(`GET /store answered ${res.status}`);
  for (const email of storeSchema.parse(await res.json()).emails) {
    if (mirror.ids.has(email.messageId)) continue;
    mirror.ids.add(email.messageId);
    mirror.emails.push(email);
  }
  const to = filter.to?.toLowerCase();
  if (to === undefined) return [...mirror.emails];
  return mirror.emails.filter((e) => [...e.destination.to, ...e.destination.cc, ...e.destination.bcc].some((a) => a.toLowerCase().includes(to)));
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
  mirrors.delete(inject('sesEndpoint'));
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
