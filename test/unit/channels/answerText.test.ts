import { describe, expect, it } from 'vitest';
import { ANSWER_TEXT_MAX, safeAnswerText } from '../../../functions/channels/answerParts';
import { classifyAnswer } from '../../../functions/channels/channelSender';

const WEBHOOK_URL = 'https://hooks.slack.com/services/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';
const BOT_TOKEN = '7123456789:AAHk3fJ9sLq2ZxV8mN4pR7tY1uW6eB0cD5g';
const HOSTILE = `upstream said: POST ${WEBHOOK_URL} failed; retry with bot${BOT_TOKEN} at api.telegram.org/bot${BOT_TOKEN}/sendMessage ${'padding '.repeat(80)}`;

describe('a destination’s answer text in a reason', () => {
  it('keeps no URL, no URL path and no token from a hostile body, and is capped', () => {
    const safe = safeAnswerText(HOSTILE);
    for (const secret of [
      WEBHOOK_URL,
      'T0123ABCD/B0456EFGH',
      'xK9fQ2mZ7pL3vR8sT1uW4yN6',
      BOT_TOKEN,
      'AAHk3fJ9sLq2ZxV8mN4pR7tY1uW6eB0cD5g',
      '/services/',
      'hooks.slack.com',
    ]) {
      expect(safe).not.toContain(secret);
    }
    expect(safe).toContain('[url]');
    expect(safe).toContain('[token]');
    expect(safe.length).toBeLessThanOrEqual(ANSWER_TEXT_MAX);
    expect(safe.startsWith('upstream said: POST [url] failed')).toBe(true);
  });

  it('leaves an ordinary answer readable', () => {
    expect(safeAnswerText('  Bad Request:\n chat not found ')).toBe('Bad Request: chat not found');
    expect(safeAnswerText('channel_is_archived')).toBe('channel_is_archived');
  });

  it('the classified reason of a refusal carries the cleaned text only', () => {
    const answer = classifyAnswer('webhook', 410, new Headers(), JSON.stringify({ message: HOSTILE }));
    expect(answer.kind).toBe('refused');
    const reason = answer.kind === 'refused' ? answer.reason : '';
    expect(reason).toMatch(/^HTTP 410: upstream said/);
    expect(reason).not.toContain(BOT_TOKEN);
    expect(reason).not.toContain('hooks.slack.com');
    expect(reason.length).toBeLessThanOrEqual(ANSWER_TEXT_MAX + 'HTTP 410: '.length);
  });
});
