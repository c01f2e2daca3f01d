import { parseTelegramHtml } from './telegramHtml';

/** One request a receiver recorded (what the view reads of `Received`). */
interface Received {
  readonly kind: 'slack' | 'discord' | 'telegram' | 'pagerduty' | 'webhook' | 'teams';
  readonly destination: string;
  readonly body: string;
  readonly at: number;
  readonly status: number;
  /** Images it uploaded, served at `/files/<index>/<n>`. */
  readonly images?: readonly { readonly filename: string }[];
}

/** Where the page finds one received request's uploaded images: its index in the list, and each file's name. */
interface Files {
  readonly index: number;
  readonly names: readonly string[];
}

/** An uploaded image shown as it would be: `attachment://<name>` (Discord) or the request's own photo. */
function image(files: Files, name: string | undefined): string {
  const n = name === undefined ? 0 : files.names.indexOf(name);
  return n < 0 || files.names[n] === undefined ? '' : `<img class="upload" alt="${esc(files.names[n])}" src="/files/${files.index}/${n}">`;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: every markup character escaped. */
function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A Slack text object's text as Slack shows it (`&amp;`, `&lt;`, `&gt;` are its escapes). */
const text = (v: unknown): string =>
  isObject(v)
    ? String(v['text'] ?? '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
    : '';

/** A link shown as a button: only http(s) targets get an href. */
function button(label: unknown, url: unknown): string {
  const href = typeof url === 'string' && /^https?:\/\//i.test(url) ? ` href="${esc(url)}" rel="noreferrer noopener"` : '';
  return `<a class="button"${href}>${esc(label)}</a>`;
}

/** Text with Markdown code blocks (a report's table): the blocks as `<pre>`, the rest as paragraphs, all escaped. */
function withCode(raw: string): string {
  return raw
    .split('```')
    .map((part, i) => (i % 2 === 1 ? `<pre>${esc(part.replace(/^\n/, ''))}</pre>` : part.trim() === '' ? '' : `<p>${esc(part)}</p>`))
    .join('');
}

function slack(body: Record<string, unknown>): string {
  const blocks = list(body['blocks']).filter(isObject);
  if (blocks.length === 0) return `<p>${esc(body['text'])}</p>`;
  return blocks
    .map((b) => {
      switch (b['type']) {
        case 'header':
          return `<h3>${esc(text(b['text']))}</h3>`;
        case 'section':
          return `${b['text'] ? withCode(text(b['text'])) : ''}${
            list(b['fields']).length
              ? `<dl>${list(b['fields'])
                  .map((f) => `<dd>${esc(text(f))}</dd>`)
                  .join('')}</dl>`
              : ''
          }`;
        case 'context':
          return `<p class="small">${list(b['elements'])
            .map((e) => esc(text(e)))
            .join(' · ')}</p>`;
        case 'actions':
          return `<p>${list(b['elements'])
            .filter(isObject)
            .map((e) => button(text(e['text']), e['url']))
            .join(' ')}</p>`;
        case 'divider':
          return '<hr>';
        default:
          return '';
      }
    })
    .join('');
}

function discord(body: Record<string, unknown>, files: Files): string {
  // A message with a file upload (a chart) is multipart: the message is its `payload_json`.
  if (typeof body['payload_json'] === 'string') {
    try {
      const payload = JSON.parse(body['payload_json']) as unknown;
      if (isObject(payload)) body = payload;
    } catch {
      return `<p>(Discord would refuse this: payload_json is not JSON)</p>`;
    }
  }
  const embeds = list(body['embeds']).filter(isObject);
  const content = body['content'] ? `<p>${esc(body['content'])}</p>` : '';
  return (
    content +
    embeds
      .map((e) => {
        const color = typeof e['color'] === 'number' ? `#${e['color'].toString(16).padStart(6, '0')}` : '#5865f2';
        const fields = list(e['fields'])
          .filter(isObject)
          .map((f) => `<dt>${esc(f['name'])}</dt><dd>${esc(f['value'])}</dd>`)
          .join('');
        const title = e['url'] ? button(e['title'], e['url']) : esc(e['title']);
        const url = isObject(e['image']) ? e['image']['url'] : undefined;
        const picture = typeof url === 'string' && url.startsWith('attachment://') ? image(files, url.slice('attachment://'.length)) : '';
        return `<div class="embed" style="border-left-color:${esc(color)}"><h3>${title}</h3>${withCode(String(e['description'] ?? ''))}${fields ? `<dl>${fields}</dl>` : ''}${picture}${isObject(e['footer']) ? `<p class="small">${esc(e['footer']['text'])}</p>` : ''}</div>`;
      })
      .join('')
  );
}

function telegram(body: Record<string, unknown>, files: Files): string {
  const raw = String(body['text'] ?? body['caption'] ?? '');
  // What Telegram would show: the visible text of its HTML subset (markup never reaches this page).
  const parsed = body['parse_mode'] === 'HTML' ? parseTelegramHtml(raw) : { ok: true as const, text: raw };
  const shown = parsed.ok ? parsed.text : `(Telegram would refuse this: ${parsed.reason})`;
  const keyboard = isObject(body['reply_markup']) ? list(body['reply_markup']['inline_keyboard']) : [];
  const buttons = keyboard
    .map(
      (row) =>
        `<p>${list(row)
          .filter(isObject)
          .map((b) => button(b['text'], b['url']))
          .join(' ')}</p>`,
    )
    .join('');
  return `${files.names.length > 0 ? image(files, undefined) : ''}<p class="pre">${esc(shown)}</p>${buttons}`;
}

function pagerduty(body: Record<string, unknown>): string {
  const payload = isObject(body['payload']) ? body['payload'] : {};
  return `<p><b>${esc(body['event_action'])}</b> ${payload['severity'] ? `(${esc(payload['severity'])})` : ''} dedup_key <code>${esc(body['dedup_key'])}</code></p>${payload['summary'] ? `<p>${esc(payload['summary'])}</p>` : ''}`;
}

/** A Teams card's text runs, one paragraph per block, and its buttons. */
function teams(body: Record<string, unknown>): string {
  const attachment: unknown = Array.isArray(body['attachments']) ? body['attachments'][0] : undefined;
  const card = isObject(attachment) && isObject(attachment['content']) ? attachment['content'] : {};
  const blocks = (items: unknown): string =>
    (Array.isArray(items) ? items : [])
      .filter(isObject)
      .map((b) =>
        b['type'] === 'Container'
          ? `<div class="pre">${blocks(b['items'])}</div>`
          : `<p>${(Array.isArray(b['inlines']) ? b['inlines'] : [{ text: b['text'] }])
              .filter(isObject)
              .map((r) =>
                r['weight'] === 'Bolder' ? `<b>${esc(r['text'])}</b>` : r['fontType'] === 'Monospace' ? `<code>${esc(r['text'])}</code>` : esc(r['text']),
              )
              .join('')}</p>`,
      )
      .join('');
  const actions = (Array.isArray(card['actions']) ? card['actions'] : []).filter(isObject).map((a) => `<span class="button">${esc(a['title'])}</span>`);
  return `${blocks(card['body'])}${actions.join(' ')}`;
}

function message(r: Received, index: number): string {
  const files: Files = { index, names: (r.images ?? []).map((i) => i.filename) };
  let body: unknown;
  try {
    body = JSON.parse(r.body) as unknown;
  } catch {
    body = r.body;
  }
  if (!isObject(body) || r.kind === 'webhook') return `<pre>${esc(isObject(body) ? JSON.stringify(body, null, 2) : r.body)}</pre>`;
  switch (r.kind) {
    case 'slack':
      return slack(body);
    case 'discord':
      return discord(body, files);
    case 'telegram':
      return telegram(body, files);
    case 'pagerduty':
      return pagerduty(body);
    case 'teams':
      return teams(body);
  }
}

/**
 * The inbox's "channels" view: what each destination was sent, newest first, drawn roughly as
 * the chat shows it (Slack blocks, a Discord embed, Telegram's visible text and buttons, a
 * PagerDuty event, a webhook's JSON), with the image a message uploaded (a Discord embed's
 * `attachment://` chart, a Telegram photo) from `/files/<index>/<n>`. Every value from a message is escaped: a hostile delegate
 * name shows as text. A static page (no script).
 */
export function channelsView(received: readonly Received[]): string {
  const items = received
    .map((r, index) => ({ r, index }))
    .reverse()
    .slice(0, 200)
    .map(
      ({ r, index }) =>
        `<article class="${esc(r.kind)}"><header><span class="kind">${esc(r.kind)}</span> ${esc(r.destination.length > 24 ? `${r.destination.slice(0, 24)}…` : r.destination)} · HTTP ${esc(r.status)} · ${esc(new Date(r.at).toISOString())}</header>${message(r, index)}</article>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Channels: what the local receivers were sent</title><style>
body{font:14px system-ui,sans-serif;margin:2em;max-width:760px;color:#1d1c1d}article{border:1px solid #ddd;border-radius:6px;padding:.6em 1em;margin:.8em 0}
header{font-size:12px;color:#616061}.kind{font-weight:bold;text-transform:uppercase}.slack{border-left:4px solid #4a154b}.telegram{border-left:4px solid #229ed9}
.pagerduty{border-left:4px solid #06ac38}.teams{border-left:4px solid #5b5fc7}.webhook{border-left:4px solid #888}.embed{border-left:4px solid;background:#f2f3f5;padding:.4em .8em}
.button{display:inline-block;border:1px solid #bbb;border-radius:4px;padding:.2em .6em;margin:.2em 0;text-decoration:none}.small{font-size:12px;color:#616061}
.pre{white-space:pre-wrap}.upload{max-width:100%;margin:.4em 0}pre{white-space:pre-wrap;font-size:12px}dl{display:grid;grid-template-columns:1fr 1fr;gap:.2em 1em}dd{margin:0}
</style></head><body><h1>Channels</h1><p class="small">What the demo channels were sent (newest first; JSON at <a href="/received">/received</a>). Emails are in the inbox.</p>
${items || '<p>Nothing sent yet.</p>'}
</body></html>`;
}
