import type { TestResult } from './testChannel';

/** What a channel test came to, in words a person reads: the destination's answer, and what it means for the channel. */
export interface ChannelTestText {
  /** The answer, e.g. `delivered (HTTP 200)` or `refused: HTTP 404: no_service`. */
  readonly answer: string;
  /** What follows from it (` (marked broken)`, or why a throttle broke nothing); empty when nothing does. */
  readonly note: string;
}

/** Words for `result` (the CLI's `channels test` and the desk's Test button say the same). Never a URL or a secret: the sender's reasons hold neither. */
export function channelTestText(result: TestResult): ChannelTestText {
  const o = result.outcome;
  const answer =
    o.kind === 'delivered'
      ? `delivered (HTTP ${o.status})`
      : o.kind === 'not-applicable'
        ? 'nothing to send'
        : o.kind === 'throttled'
          ? `throttled (HTTP 429, retry after ${o.retryAfterMs} ms)`
          : o.kind === 'migrated'
            ? 'chat migrated'
            : `${o.kind}: ${o.reason}`;
  const note =
    o.kind === 'refused'
      ? ' (marked broken)'
      : o.kind === 'throttled'
        ? `: still throttled after ${Math.round(result.waitedMs / 1000)} s of announced waits; it refused nothing, so the channel is not broken: test it again later`
        : '';
  return { answer, note };
}
