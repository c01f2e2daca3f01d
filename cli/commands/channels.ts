import type { Command } from 'commander';
import { CHANNEL_TYPES, type ChannelRecord } from '../../functions/domain/channel';
import { channelSenderFrom } from '../../functions/runtime/channelSenderFrom';
import { channelTestText } from '../../functions/services/channels/channelTestText';
import { testChannel } from '../../functions/services/channels/testChannel';
import { channelConfigFrom, parseChannelName, shownUrl, type ChannelOptions, type ChannelPolicy } from '../channelOptions';
import { channelSecretScope } from '../channelSecretScope';
import type { CliContext, CliRuntime } from '../cliRuntime';
import { formatTable, plural, printJson } from '../output';

function withChannelOptions(command: Command): Command {
  return command
    .option('--type <type>', CHANNEL_TYPES.join('|'))
    .option(
      '--secret <ref>',
      'env:<VAR> or secret:<Secrets Manager name or ARN>: the Slack/Discord webhook URL, Telegram bot token, PagerDuty routing key or webhook signing secret',
    )
    .option('--url <https-url>', 'where a webhook channel posts (https)')
    .option('--chat-id <id>', 'the Telegram chat id')
    .option('--categories <list>', 'drawdown,security,expiry,reports (default drawdown,security,expiry)');
}

/** Loopback destinations are accepted when running locally (local receivers); Secrets Manager names only under the stage's prefix. */
function channelPolicy(rt: CliRuntime): ChannelPolicy {
  return { urls: { loopback: rt.settings.DYNAMODB_ENDPOINT !== undefined }, secrets: channelSecretScope(rt.settings) };
}

/** A channel as `channels list` shows it: never the secret's value nor a URL's path. */
function publicView(c: ChannelRecord): Record<string, unknown> {
  return {
    name: c.name,
    type: c.type,
    secret: c.secret,
    url: c.url === null ? null : shownUrl(c.url),
    chatId: c.chatId,
    categories: c.categories,
    accounts: c.accounts,
    state: c.state.kind,
    ...(c.state.kind === 'broken' ? { brokenReason: c.state.reason, brokenSince: new Date(c.state.since).toISOString() } : {}),
    lastDelivery: c.lastDelivery === null ? null : { at: new Date(c.lastDelivery.at).toISOString(), outcome: c.lastDelivery.outcome },
  };
}

/** `sentinel channels ...`: chat, pager and webhook destinations for alerts. */
export function register(program: Command, context: CliContext): void {
  const channels = program.command('channels').description('manage alert channels (Slack, Discord, Telegram, PagerDuty, signed webhooks)');
  const { io } = context;

  withChannelOptions(channels.command('add').argument('<name>', 'a name for the channel').description('add a channel')).action(
    async (name: string, options: ChannelOptions) => {
      const valid = parseChannelName(name);
      const rt = await context.runtime();
      const config = channelConfigFrom(valid, options, null, channelPolicy(rt));
      const now = rt.now();
      const outcome = await rt.repos.channels.create({ ...config, state: { kind: 'ok' }, lastDelivery: null, createdAt: now, updatedAt: now });
      if (outcome.kind === 'exists') throw new Error(`channel ${valid} exists; use "channels update" to change it`);
      io.out(
        `added channel ${valid} (${config.type}: ${config.categories.join(', ')}); route accounts to it with "accounts update <address> --add-channel ${valid}"\n`,
      );
    },
  );

  withChannelOptions(channels.command('update').argument('<name>').description('change a channel')).action(async (name: string, options: ChannelOptions) => {
    const valid = parseChannelName(name);
    const rt = await context.runtime();
    const current = await rt.repos.channels.get(valid);
    if (!current) throw new Error(`no channel ${valid}`);
    const config = channelConfigFrom(valid, options, current, channelPolicy(rt));
    const outcome = await rt.repos.channels.replace(current, { ...current, ...config, updatedAt: Math.max(rt.now(), current.updatedAt + 1) });
    if (outcome.kind === 'conflict') throw new Error(`channel ${valid} changed meanwhile; run the command again`);
    io.out(`updated channel ${valid}\n`);
  });

  channels
    .command('remove')
    .argument('<name>')
    .description("remove a channel (its accounts keep their emails; its messages' Snooze and Preferences links stop working)")
    .action(async (name: string) => {
      const valid = parseChannelName(name);
      const rt = await context.runtime();
      if ((await rt.repos.channels.remove(valid)).kind === 'not-found') throw new Error(`no channel ${valid}`);
      io.out(`removed channel ${valid}\n`);
    });

  channels
    .command('revoke-links')
    .argument('<name>')
    .description("void the Snooze and Preferences links of the channel's messages posted so far (its link epoch); later messages carry new ones")
    .action(async (name: string) => {
      const valid = parseChannelName(name);
      const rt = await context.runtime();
      if ((await rt.repos.channels.revokeLinks(valid, rt.now())).kind === 'not-found') throw new Error(`no channel ${valid}`);
      io.out(`revoked the Snooze and Preferences links of channel ${valid} issued until now; their pages now read as expired\n`);
    });

  channels
    .command('list')
    .description('list channels: type, categories, accounts, state and last delivery')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const rt = await context.runtime();
      const all = await rt.repos.channels.list();
      if (options.json) return printJson(io, all.map(publicView));
      if (all.length === 0) return io.out('no channels yet; add one with "sentinel channels add <name> --type slack --secret env:SLACK_WEBHOOK_URL"\n');
      io.out(
        formatTable(
          ['NAME', 'TYPE', 'CATEGORIES', 'ACCOUNTS', 'STATE', 'LAST DELIVERY'],
          all.map((c) => [
            c.name,
            c.type,
            c.categories.join(','),
            String(c.accounts.length),
            c.state.kind === 'ok' ? 'ok' : `broken since ${new Date(c.state.since).toISOString()}: ${c.state.reason}`,
            c.lastDelivery === null ? '-' : `${new Date(c.lastDelivery.at).toISOString()} ${c.lastDelivery.outcome}`,
          ]),
        ),
      );
      io.out(`${plural(all.length, 'channel')}\n`);
    });

  channels
    .command('test')
    .argument('<name>')
    .description('send a test message now and print what the destination answered (exit 1 if it refused); a success clears a broken state')
    .action(async (name: string) => {
      const valid = parseChannelName(name);
      const rt = await context.runtime();
      const channel = await rt.repos.channels.get(valid);
      if (!channel) throw new Error(`no channel ${valid}`);
      const result = await testChannel(
        {
          channels: rt.repos.channels,
          sender: channelSenderFrom(rt.settings, rt.channelEnv),
          now: rt.now,
          sleep: (ms) => rt.sleep(ms),
          onWait: (ms, o) => io.err(`channel ${valid}: throttled (HTTP ${o.status}), retrying in ${Math.ceil(ms / 1000)} s\n`),
        },
        channel,
      );
      const { answer, note } = channelTestText(result);
      if (!result.ok) throw new Error(`channel ${valid}: ${answer}${note}`);
      io.out(`channel ${valid}: ${answer}\n`);
    });
}
