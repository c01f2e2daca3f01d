import { DEFAULT_CHANNEL_CATEGORIES, type ChannelRecord, type ChannelType } from '../functions/domain/channel';
import type { Repositories } from '../functions/store/repositories';
import type { ChatReceivers } from './receivers/chatReceivers';

/** The demo's bot token and routing key: made up, valid only at the local receivers. */
const DEMO_TELEGRAM_TOKEN = '100000:demo-bot-token';
const DEMO_PAGERDUTY_KEY = 'Rdemo000000000000000000000000000';
/** The demo Telegram group (a supergroup id). */
export const DEMO_CHAT_ID = '-1001000000001';

/** The variables the demo channels' `env:` references name: the only ones a running `npm start` hands to the CLI. */
export const DEMO_CHANNEL_VARIABLES = [
  'SENTINEL_DEMO_SLACK_URL',
  'SENTINEL_DEMO_DISCORD_URL',
  'SENTINEL_DEMO_TELEGRAM_TOKEN',
  'SENTINEL_DEMO_PAGERDUTY_KEY',
] as const;
export type DemoChannelVariable = (typeof DEMO_CHANNEL_VARIABLES)[number];

const DEMO_CHANNELS: readonly { name: string; type: ChannelType; secret: string; chatId: string | null }[] = [
  { name: 'demo-slack', type: 'slack', secret: 'env:SENTINEL_DEMO_SLACK_URL', chatId: null },
  { name: 'demo-discord', type: 'discord', secret: 'env:SENTINEL_DEMO_DISCORD_URL', chatId: null },
  { name: 'demo-telegram', type: 'telegram', secret: 'env:SENTINEL_DEMO_TELEGRAM_TOKEN', chatId: DEMO_CHAT_ID },
  { name: 'demo-pagerduty', type: 'pagerduty', secret: 'env:SENTINEL_DEMO_PAGERDUTY_KEY', chatId: null },
];

/**
 * Points the demo's channel secrets and the Telegram and PagerDuty API bases at the local
 * receivers (in `env`, before settings are loaded; bases already set are kept). Returns the
 * demo channels' variables it set: URLs and made-up credentials of the local receivers only.
 */
export function demoChannelEnv(env: Record<string, string | undefined>, receivers: ChatReceivers): Record<DemoChannelVariable, string> {
  const demo: Record<DemoChannelVariable, string> = {
    SENTINEL_DEMO_SLACK_URL: receivers.slackUrl('T0DEMO/B0DEMO/demo'),
    SENTINEL_DEMO_DISCORD_URL: receivers.discordUrl('1000', 'demo'),
    SENTINEL_DEMO_TELEGRAM_TOKEN: DEMO_TELEGRAM_TOKEN,
    SENTINEL_DEMO_PAGERDUTY_KEY: DEMO_PAGERDUTY_KEY,
  };
  Object.assign(env, demo);
  env['TELEGRAM_API_URL'] ??= receivers.telegramApiUrl;
  env['PAGERDUTY_EVENTS_URL'] ??= receivers.pagerdutyEventsUrl;
  return demo;
}

/**
 * One demo channel of each chat type and a pager (secrets as `env:` references, which
 * `demoChannelEnv` sets each run: the receivers' port changes), routed to `accounts`. Channels
 * already there keep their settings; the accounts are added to them. Returns the names created.
 */
export async function setUpDemoChannels(repos: Pick<Repositories, 'channels'>, accounts: readonly string[], now: number): Promise<string[]> {
  const created: string[] = [];
  for (const spec of DEMO_CHANNELS) {
    const existing = await repos.channels.get(spec.name);
    if (existing) {
      const missing = accounts.filter((a) => !existing.accounts.some((b) => b.toLowerCase() === a.toLowerCase()));
      if (missing.length > 0)
        await repos.channels.replace(existing, { ...existing, accounts: [...existing.accounts, ...(missing as ChannelRecord['accounts'])], updatedAt: now });
      continue;
    }
    const record: ChannelRecord = {
      ...spec,
      url: null,
      categories: [...DEFAULT_CHANNEL_CATEGORIES],
      accounts: [...accounts] as ChannelRecord['accounts'],
      state: { kind: 'ok' },
      lastDelivery: null,
      createdAt: now,
      updatedAt: now,
    };
    if ((await repos.channels.create(record)).kind === 'created') created.push(spec.name);
  }
  return created;
}
