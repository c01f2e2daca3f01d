// Preloaded (`node --import`) into the aws-ses-v2-local process by local/ses.ts: keeps its
// in-memory store to the newest emails, so /store and the inbox page stay small enough to serve.
// Limits come from SES_LOCAL_MAX_EMAILS and SES_LOCAL_MAX_BYTES; SES_LOCAL_STORE_MODULE is the
// path of aws-ses-v2-local's store module (the same file its server loads).
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
const store = load(process.env.SES_LOCAL_STORE_MODULE);
const maxEmails = Number(process.env.SES_LOCAL_MAX_EMAILS) || 1000;
const maxBytes = Number(process.env.SES_LOCAL_MAX_BYTES) || 32 * 1024 * 1024;
const sizes = new WeakMap();
const saveEmail = store.saveEmail;

store.saveEmail = (email) => {
  sizes.set(email, Buffer.byteLength(JSON.stringify(email)));
  saveEmail(email);
  const emails = store.getStoreReadonly().emails;
  let total = emails.reduce((sum, e) => sum + (sizes.get(e) || 0), 0);
  let drop = Math.max(0, emails.length - maxEmails);
  for (let i = 0; i < drop; i++) total -= sizes.get(emails[i]) || 0;
  while (drop < emails.length - 1 && total > maxBytes) total -= sizes.get(emails[drop++]) || 0;
  if (drop > 0) emails.splice(0, drop);
};
