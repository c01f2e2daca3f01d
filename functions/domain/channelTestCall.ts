import * as z from 'zod';

/** What a channel test can come to (the desk's audit keeps the same words). */
export const CHANNEL_TEST_OUTCOMES = ['sent', 'failed', 'throttled', 'nothing-to-send'] as const;

/** What `channel-test` is asked: exactly the channel's name, nothing else. */
export const channelTestRequestSchema = z.strictObject({
  channel: z.string().min(1).max(200),
});
/** A parsed `channel-test` request. */
export type ChannelTestRequest = z.infer<typeof channelTestRequestSchema>;

/**
 * What a channel test answered: `tested` with the outcome and the destination's answer in plain
 * words (never a URL or a secret), or `not-found` when no channel has that name.
 */
export const channelTestAnswerSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('tested'), outcome: z.enum(CHANNEL_TEST_OUTCOMES), message: z.string().min(1) }),
  z.strictObject({ kind: z.literal('not-found') }),
]);
/** A channel test's answer. */
export type ChannelTestAnswer = z.infer<typeof channelTestAnswerSchema>;
