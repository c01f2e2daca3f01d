import * as z from 'zod';
import { ONE_CLICK_CATEGORIES, type MailCategory, type OneClickCategory } from './mailCategory';
import type { NoticeType } from './notice';

/**
 * What people in a chat set for one account through its buttons, per channel name: a snooze of
 * the channel's drawdown alerts (until when, epoch ms) and the categories muted there. Security
 * notices cannot be muted here (only `channels update --categories` stops them).
 */
export interface ChannelControls {
  readonly snoozes: Readonly<Record<string, number>>;
  readonly mutes: Readonly<Record<string, readonly OneClickCategory[]>>;
}

/** The stored state of an account's channel controls (alert-state rule `channel-controls`). */
export const channelControlsStateSchema = z.object({
  snoozes: z.record(z.string(), z.number()).default({}),
  mutes: z.record(z.string(), z.array(z.enum(ONE_CLICK_CATEGORIES))).default({}),
});

/** No snooze, nothing muted. */
export const NO_CHANNEL_CONTROLS: ChannelControls = { snoozes: {}, mutes: {} };

/** The notice types a channel snooze holds back; the alert machine keeps advancing levels, and a recovery still goes (it closes what was opened). */
export const SNOOZED_NOTICE_TYPES: readonly NoticeType[] = ['drawdown.fired', 'drawdown.repeated'];

/** Whether `channel`'s drawdown alerts about the account are snoozed at `now`. */
export function isChannelSnoozed(controls: ChannelControls, channel: string, now: number): boolean {
  return (controls.snoozes[channel] ?? 0) > now;
}

/** Whether a notice of `type` and `category` goes to `channel` given the account's controls at `now`. */
export function channelTakes(controls: ChannelControls, channel: string, notice: { type: NoticeType; category: MailCategory }, now: number): boolean {
  if (notice.category !== 'security' && (controls.mutes[channel] ?? []).includes(notice.category)) return false;
  return !(SNOOZED_NOTICE_TYPES.includes(notice.type) && isChannelSnoozed(controls, channel, now));
}

/** `controls` with `channel` snoozed until the later of its current end and `until`; ended snoozes dropped. */
export function withChannelSnooze(controls: ChannelControls, channel: string, until: number, now: number): ChannelControls {
  const running = Object.fromEntries(Object.entries(controls.snoozes).filter(([, end]) => end > now));
  return { ...controls, snoozes: { ...running, [channel]: Math.max(running[channel] ?? 0, until) } };
}

/** `controls` with `channel`'s muted categories replaced by `muted` (security never among them). */
export function withChannelMutes(controls: ChannelControls, channel: string, muted: readonly OneClickCategory[]): ChannelControls {
  const rest = Object.fromEntries(Object.entries(controls.mutes).filter(([name]) => name !== channel));
  const kept = ONE_CLICK_CATEGORIES.filter((c) => muted.includes(c));
  return { ...controls, mutes: kept.length === 0 ? rest : { ...rest, [channel]: kept } };
}
