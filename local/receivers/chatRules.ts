import { parseTelegramHtml } from './telegramHtml';

/** Why a request body breaks the destination's published rules, or null when it keeps them. */
export type RuleCheck = string | null;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Slack incoming webhook: `text` and/or `blocks` (Block Kit limits); an invalid body is Slack's 400 `invalid_blocks`/`invalid_payload`. */
export function checkSlack(body: unknown): RuleCheck {
  if (!isObject(body)) return 'invalid_payload';
  const text = str(body['text']);
  const blocks = body['blocks'];
  if (text === null && blocks === undefined) return 'no_text';
  if (text !== null && text.length > 40_000) return 'invalid_payload: text too long';
  if (blocks === undefined) return null;
  if (!Array.isArray(blocks) || blocks.length > 50) return 'invalid_blocks: at most 50 blocks';
  for (const block of blocks) {
    if (!isObject(block)) return 'invalid_blocks';
    const t = block['type'];
    const textObj = block['text'];
    if (t === 'header') {
      if (!isObject(textObj) || textObj['type'] !== 'plain_text' || (str(textObj['text']) ?? '').length > 150)
        return 'invalid_blocks: header must be plain_text of at most 150';
    } else if (t === 'section') {
      const fields = block['fields'];
      if (textObj === undefined && fields === undefined) return 'invalid_blocks: section needs text or fields';
      if (isObject(textObj) && ((str(textObj['text']) ?? '').length > 3_000 || (str(textObj['text']) ?? '').length === 0))
        return 'invalid_blocks: section text 1..3000';
      if (fields !== undefined && (!Array.isArray(fields) || fields.length > 10 || fields.some((f) => !isObject(f) || (str(f['text']) ?? '').length > 2_000))) {
        return 'invalid_blocks: at most 10 fields of at most 2000';
      }
    } else if (t === 'actions') {
      const elements = block['elements'];
      if (!Array.isArray(elements) || elements.length === 0 || elements.length > 25) return 'invalid_blocks: actions needs 1..25 elements';
      for (const e of elements) {
        if (!isObject(e) || e['type'] !== 'button') return 'invalid_blocks: unknown element';
        const label = isObject(e['text']) ? str(e['text']['text']) : null;
        if (label === null || label.length > 75) return 'invalid_blocks: button text at most 75';
        const url = str(e['url']);
        if (url !== null && (url.length > 3_000 || !/^https?:\/\//.test(url))) return 'invalid_blocks: button url';
      }
    } else if (t !== 'context' && t !== 'divider' && t !== 'image') return `invalid_blocks: unknown block type ${String(t)}`;
  }
  return null;
}

/** Discord execute-webhook body: content or embeds, within the embed limits (error 50035 "Invalid Form Body" otherwise). */
export function checkDiscord(body: unknown): RuleCheck {
  if (!isObject(body)) return 'Invalid Form Body';
  const embeds = body['embeds'];
  const content = str(body['content']);
  if (content !== null && content.length > 2_000) return 'content: Must be 2000 or fewer in length.';
  if (embeds === undefined) return content ? null : 'Cannot send an empty message';
  if (!Array.isArray(embeds) || embeds.length > 10) return 'embeds: Must be 10 or fewer in length.';
  let total = 0;
  for (const e of embeds) {
    if (!isObject(e)) return 'embeds: invalid';
    const title = str(e['title']) ?? '';
    const description = str(e['description']) ?? '';
    const footer = isObject(e['footer']) ? (str(e['footer']['text']) ?? '') : '';
    if (title.length > 256) return 'embeds.0.title: Must be 256 or fewer in length.';
    if (description.length > 4_096) return 'embeds.0.description: Must be 4096 or fewer in length.';
    if (footer.length > 2_048) return 'embeds.0.footer.text: Must be 2048 or fewer in length.';
    const fields = e['fields'] ?? [];
    if (!Array.isArray(fields) || fields.length > 25) return 'embeds.0.fields: Must be 25 or fewer in length.';
    total += title.length + description.length + footer.length;
    for (const f of fields) {
      if (!isObject(f)) return 'embeds.0.fields: invalid';
      const name = str(f['name']) ?? '';
      const value = str(f['value']) ?? '';
      if (name.length === 0 || name.length > 256) return 'embeds.0.fields.name: 1..256';
      if (value.length === 0 || value.length > 1_024) return 'embeds.0.fields.value: 1..1024';
      total += name.length + value.length;
    }
  }
  if (total > 6_000) return 'Embed size exceeds maximum size of 6000';
  return null;
}

/** Telegram `sendMessage`/`sendPhoto` body in HTML mode: the HTML subset, and the lengths after entity parsing. */
export function checkTelegram(method: string, body: unknown): RuleCheck {
  if (!isObject(body)) return 'Bad Request: invalid body';
  if (body['chat_id'] === undefined) return 'Bad Request: chat_id is empty';
  const field = method === 'sendPhoto' ? 'caption' : 'text';
  const limit = method === 'sendPhoto' ? 1_024 : 4_096;
  const raw = str(body[field]) ?? '';
  if (method === 'sendMessage' && raw.length === 0) return 'Bad Request: message text is empty';
  const parsed = body['parse_mode'] === 'HTML' ? parseTelegramHtml(raw) : { ok: true as const, text: raw };
  if (!parsed.ok) return `Bad Request: ${parsed.reason}`;
  if (parsed.text.length > limit) return method === 'sendPhoto' ? 'Bad Request: message caption is too long' : 'Bad Request: message is too long';
  const markup = body['reply_markup'];
  if (markup !== undefined) {
    const rows = isObject(markup) ? markup['inline_keyboard'] : undefined;
    if (!Array.isArray(rows)) return 'Bad Request: inline keyboard expected';
    for (const row of rows) {
      if (!Array.isArray(row)) return 'Bad Request: inline keyboard row expected';
      for (const b of row) {
        if (!isObject(b) || !str(b['text'])) return 'Bad Request: button text is empty';
        if (!/^https?:\/\//.test(str(b['url']) ?? '')) return 'Bad Request: BUTTON_URL_INVALID';
      }
    }
  }
  return null;
}

/** PagerDuty Events API v2 body (`400 Invalid event` otherwise). */
export function checkPagerDuty(body: unknown): RuleCheck {
  if (!isObject(body)) return 'Invalid event';
  if (!str(body['routing_key']) || (str(body['routing_key']) ?? '').length !== 32) return 'routing_key: invalid';
  const action = body['event_action'];
  if (action !== 'trigger' && action !== 'acknowledge' && action !== 'resolve') return 'event_action: must be trigger, acknowledge or resolve';
  const dedup = str(body['dedup_key']);
  if (dedup !== null && dedup.length > 255) return 'dedup_key: must be at most 255 characters';
  if (action !== 'trigger') return dedup ? null : 'dedup_key: required for acknowledge and resolve';
  const payload = body['payload'];
  if (!isObject(payload)) return 'payload: required';
  const summary = str(payload['summary']);
  if (!summary || summary.length > 1_024) return 'payload.summary: required, at most 1024';
  if (!str(payload['source'])) return 'payload.source: required';
  if (!['critical', 'error', 'warning', 'info'].includes(String(payload['severity']))) return 'payload.severity: invalid';
  return null;
}
