import type { ChannelTestAnswer } from '../../domain/channelTestCall';

/**
 * How the desk's Test button has a channel tested: in AWS by invoking the private `channel-test`
 * function (which alone reads the channels' secrets), locally in process. Never throws for a test
 * that could not be run: that is a `failed` test with why in words.
 */
export interface ChannelTester {
  runTest(channel: string): Promise<ChannelTestAnswer>;
}
