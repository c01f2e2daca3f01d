// Preloaded (`node --import`) into the aws-ses-v2-local process by local/ses.ts: keeps its
// in-memory store to the newest emails, so /store and the inbox page stay small enough to serve.
// Limits come from SES_LOCAL_MAX_EMAILS and SES_LOCAL_MAX_BYTES; SES_LOCAL_STORE_MODULE is the
// path of aws-ses-v2-local's store module (the same file its server loads). With
// SES_LOCAL_STORE_FILE, the emails are also kept in that file (JSON lines; the kept ones rewritten
// at start), so the inbox outlives a restart; clearing the store empties it.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);
const store = load(process.env.SES_LOCAL_STORE_MODULE);
const maxEmails = Number(process.env.SES_LOCAL_MAX_EMAILS) || 1000;
const maxBytes = Number(process.env.SES_LOCAL_MAX_BYTES) || 32 * 1024 * 1024;
const file = process.env.SES_LOCAL_STORE_FILE || '';
const sizes = new WeakMap();
const saveEmail = store.saveEmail;
const clearStore = store.clearStore;

/** Drops the oldest emails past the limits. */
function cap() {
  const emails = store.getStoreReadonly().emails;
  let total = emails.reduce((sum, e) => sum + (sizes.get(e) || 0), 0);
  let drop = Math.max(0, emails.length - maxEmails);
  for (let i = 0; i < drop; i++) total -= sizes.get(emails[i]) || 0;
  while (drop < emails.length - 1 && total > maxBytes) total -= sizes.get(emails[drop++]) || 0;
  if (drop > 0) emails.splice(0, drop);
}

if (file) {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // first run
  }
  const emails = store.getStoreReadonly().emails;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const email = JSON.parse(line);
      sizes.set(email, Buffer.byteLength(line));
      emails.push(email);
    } catch {
      // a line cut short by a kill
    }
  }
  cap();
  writeFileSync(
    file,
    store
      .getStoreReadonly()
      .emails.map((e) => `${JSON.stringify(e)}\n`)
      .join(''),
    { mode: 0o600 },
  );
}

store.saveEmail = (email) => {
  const line = JSON.stringify(email);
  sizes.set(email, Buffer.byteLength(line));
  saveEmail(email);
  if (file) appendFileSync(file, `${line}\n`, { mode: 0o600 });
  cap();
};

store.clearStore = () => {
  clearStore();
  if (file) writeFileSync(file, '', { mode: 0o600 });
};
