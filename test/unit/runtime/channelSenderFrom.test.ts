import { describe, expect, it } from 'vitest';
import { sendToChannel } from '../../../functions/channels/channelSender';
import { ChannelConfigError } from '../../../functions/channels/errors';
import { loadSettings } from '../../../functions/config/settings';
import { channelSenderFrom } from '../../../functions/runtime/channelSenderFrom';
import { newDelegateEvent, noticeOf } from '../../support/channels/noticeFixtures';

const ENV = { AWS_SESSION_TOKEN: 'IQoJb3JpZ2luX2VjEXAMPLE-session-token', TG: '999:local-bot-token' };

describe('channelSenderFrom: env: channel secrets', () => {
  it('in AWS refuses an env: reference before anything is sent: env:AWS_SESSION_TOKEN is never a Telegram token', async () => {
    const deps = channelSenderFrom(loadSettings({ AWS_REGION: 'eu-west-1' }), ENV);
    const sent: string[] = [];
    const fetch: typeof globalThis.fetch = (input) => {
      sent.push(String(input));
      return Promise.resolve(new Response('{"ok":true}'));
    };
    const telegram = { type: 'telegram' as const, secret: 'env:AWS_SESSION_TOKEN', url: null, chatId: '-100123' };
    const failure = await sendToChannel({ ...deps, fetch }, telegram, noticeOf(newDelegateEvent), 'msg_1', 0).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChannelConfigError);
    expect(String(failure)).toContain('the channel secret env:AWS_SESSION_TOKEN names an environment variable, which is never read in AWS');
    expect(String(failure)).not.toContain(ENV.AWS_SESSION_TOKEN);
    expect(sent).toEqual([]);
  });

  it('locally reads env: references as before', async () => {
    const deps = channelSenderFrom(loadSettings({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' }), ENV);
    await expect(deps.secrets.resolve('env:TG')).resolves.toBe(ENV.TG);
  });
});
