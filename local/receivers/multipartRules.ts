import type { RuleCheck } from './chatRules';

/** One uploaded file of a multipart request. */
export interface UploadedFile {
  readonly field: string;
  readonly filename: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

/** A multipart/form-data body: its text fields and its files. */
export interface Multipart {
  readonly fields: Readonly<Record<string, string>>;
  readonly files: readonly UploadedFile[];
}

/** Telegram's published photo limits (Bot API, `sendPhoto`): 10 MB, width + height at most 10,000, ratio at most 20. */
export const TELEGRAM_PHOTO_LIMITS = { bytes: 10 * 1024 * 1024, sides: 10_000, ratio: 20 } as const;
/** Discord's upload limit per file for a webhook without boosts (10 MiB). */
export const DISCORD_FILE_BYTES = 10 * 1024 * 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Reads a multipart/form-data body (boundary from `contentType`) with the platform's parser; `null` when it is not one or is malformed. */
export async function readMultipart(raw: Uint8Array, contentType: string): Promise<Multipart | null> {
  if (!/^multipart\/form-data;\s*boundary=/i.test(contentType)) return null;
  let form: FormData;
  try {
    form = await new Request('http://receiver/', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(raw) }).formData();
  } catch {
    return null;
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => entries.push([name, value]));
  for (const [name, value] of entries) {
    if (typeof value === 'string') fields[name] = value;
    else files.push({ field: name, filename: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) });
  }
  return { fields, files };
}

/** What a multipart request is recorded as: its fields, and each file by name, type and size (not its bytes). */
export function describeMultipart(form: Multipart): Record<string, unknown> {
  return { ...form.fields, ...Object.fromEntries(form.files.map((f) => [f.field, { filename: f.filename, type: f.type, bytes: f.bytes.length }])) };
}

/** A PNG's width and height (IHDR), or `null` when the bytes are not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The JSON-like body of a Telegram multipart call (its fields, `reply_markup` parsed as Telegram
 * does) and whether its `photo` keeps the published limits. `photo` is required for `sendPhoto`.
 */
export function telegramMultipart(method: string, form: Multipart): { body: Record<string, unknown>; problem: RuleCheck } {
  let markup: unknown;
  try {
    markup = form.fields['reply_markup'] === undefined ? undefined : (JSON.parse(form.fields['reply_markup']) as unknown);
  } catch {
    return { body: { ...form.fields }, problem: "Bad Request: can't parse reply keyboard markup JSON object" };
  }
  const body: Record<string, unknown> = { ...form.fields, ...(markup === undefined ? {} : { reply_markup: markup }) };
  if (method !== 'sendPhoto') return { body, problem: null };
  const photo = form.files.find((f) => f.field === 'photo');
  if (!photo) return { body, problem: 'Bad Request: there is no photo in the request' };
  return { body, problem: checkPhoto(photo.bytes) };
}

/** A photo Telegram would refuse, and why. */
export function checkPhoto(bytes: Uint8Array): RuleCheck {
  if (bytes.length > TELEGRAM_PHOTO_LIMITS.bytes) return 'Bad Request: file is too big';
  const size = pngSize(bytes);
  if (!size) return 'Bad Request: IMAGE_PROCESS_FAILED';
  const { width, height } = size;
  if (
    width === 0 ||
    height === 0 ||
    width + height > TELEGRAM_PHOTO_LIMITS.sides ||
    Math.max(width, height) / Math.min(width, height) > TELEGRAM_PHOTO_LIMITS.ratio
  ) {
    return 'Bad Request: PHOTO_INVALID_DIMENSIONS';
  }
  return null;
}

/**
 * The JSON body of a Discord multipart execute-webhook call (`payload_json`) and whether its files
 * keep the rules: each `files[n]` within the upload limit, each `attachments[].id` naming an
 * uploaded `files[id]`, and each `attachment://<name>` in an embed naming an uploaded file.
 */
export function discordMultipart(form: Multipart): { body: unknown; problem: RuleCheck; status: number } {
  let body: unknown;
  try {
    body = JSON.parse(form.fields['payload_json'] ?? 'null') as unknown;
  } catch {
    return { body: null, problem: 'payload_json: Invalid JSON', status: 400 };
  }
  const files = form.files.filter((f) => /^files\[\d+\]$/.test(f.field));
  if (files.some((f) => f.bytes.length > DISCORD_FILE_BYTES)) return { body, problem: 'Request entity too large', status: 413 };
  const names = new Set(files.map((f) => f.filename));
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const attachments = Array.isArray(record['attachments']) ? (record['attachments'] as unknown[]) : [];
  for (const a of attachments) {
    const id = typeof a === 'object' && a !== null ? (a as Record<string, unknown>)['id'] : undefined;
    if (!files.some((f) => f.field === `files[${String(id)}]`)) return { body, problem: `attachments: unknown attachment id ${String(id)}`, status: 400 };
  }
  for (const match of JSON.stringify(body).matchAll(/attachment:\/\/([^"\\]+)/g)) {
    if (!names.has(match[1] ?? '')) return { body, problem: `embeds: attachment://${match[1] ?? ''} names no uploaded file`, status: 400 };
  }
  return { body, problem: null, status: 200 };
}
