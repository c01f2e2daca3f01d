import { channelLimits, type ChannelDefinition, type RequestInput, type ChannelRequest } from '../channelDefinition';
import { isObject, refusedOn, seconds } from '../answerParts';
import { CHART_FILE, jsonRequest, pngBlob } from '../requestParts';
import { captionFits, TELEGRAM_LIMITS, telegramMessage, type TelegramRequest } from './telegramMessage';

/** The Bot API call: `sendMessage`, or with a chart `sendPhoto` as multipart (the other parameters its fields, the keyboard as JSON). */
function telegramRequest({ channel, secret, notice, bases, extras }: RequestInput): ChannelRequest {
  const base = `${bases.telegram.replace(/\/+$/, '')}/bot${secret}`;
  const photo = extras.chart !== null && extras.part === 'whole';
  const request = telegramMessage(notice, channel.chatId ?? '', photo ? 'photo' : extras.part === 'follow-up' ? 'follow-up' : 'text');
  if (!photo || extras.chart === null) return jsonRequest(`${base}/${request.method}`, request.body);
  const form = new FormData();
  for (const [key, value] of Object.entries(request.body)) form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  form.set('photo', pngBlob(extras.chart), CHART_FILE);
  return { url: `${base}/${request.method}`, headers: {}, body: form };
}

/** A chat id that is not a positive number is a group or a channel (negative ids, `-100…`, or `@name`). */
const isGroup = (chatId: string | null): boolean => !/^\d+$/.test(chatId ?? '');

/**
 * The Telegram Bot API: the secret is the bot token, the chat its `--chat-id`; HTML text and
 * inline-keyboard buttons, a chart as `sendPhoto`; 1 message a second per chat and 20 a minute per
 * group; a 429 names its wait in `parameters.retry_after`; 401, 403 (bot kicked or blocked) and a
 * 400 "chat not found" are permanent; a 400 with `parameters.migrate_to_chat_id` moves the chat.
 */
export const telegramChannel: ChannelDefinition<TelegramRequest> = {
  type: 'telegram',
  label: 'Telegram',
  settings: { secret: 'the bot token', url: { kind: 'refused', why: 'API base is a setting' }, chatId: true, hosts: null },
  render: (notice, target) => telegramMessage(notice, target.chatId ?? ''),
  request: telegramRequest,
  classify: {
    throttledWaitMs: (answer) => seconds(isObject(answer.parsed) && isObject(answer.parsed['parameters']) ? answer.parsed['parameters']['retry_after'] : null),
    refusal: (answer) => {
      const { status, parsed, body, reason } = answer;
      const migrate = isObject(parsed) && isObject(parsed['parameters']) ? parsed['parameters']['migrate_to_chat_id'] : undefined;
      if (status === 400 && (typeof migrate === 'number' || typeof migrate === 'string')) return { kind: 'migrated', status, chatId: String(migrate) };
      if (status === 400 && /chat not found/i.test(body)) return { kind: 'refused', status, reason };
      return refusedOn(answer, [401, 403]);
    },
  },
  limits: channelLimits({
    fields: TELEGRAM_LIMITS,
    pace: (channel) => (isGroup(channel.chatId) ? { kind: 'telegram-group', spacingMs: 3_000 } : { kind: 'telegram', spacingMs: 1_000 }),
    combinesBacklog: true,
    showsChart: true,
    needsFollowUp: (notice) => !captionFits(notice),
  }),
  examples: ['delegate.new'],
};
