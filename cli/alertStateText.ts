import { formatTime } from '../functions/mail/render/format';
import { drawdownStateSchema, snoozeStateSchema } from '../functions/domain/drawdownState';
import { activeSnoozes, recipientSnoozesStateSchema } from '../functions/domain/recipientSnoozes';
import { RECIPIENT_SNOOZES_RULE, SNOOZE_RULE } from '../functions/store/alertStateRepository';
import { killSwitchStateSchema } from '../functions/domain/killSwitchDecision';
import { killSwitchStateText } from '../functions/domain/killSwitchStateText';
import type { DecisionSettlement } from '../functions/domain/decisionSettlement';
import { KILL_SWITCH_RULE } from '../functions/store/killSwitchStateItem';

/**
 * An alert rule's stored state in words, times in `timeZone`: one `[rule, state]` row per
 * drawdown level (`breached since ...`, `armed`, and the last alert), `snoozed for all recipients until ...` for the
 * account-wide snooze, one `snoozed for <email> until ...` row per running recipient snooze, and
 * the kill switch as `accounts show` words it (`killSwitchStateText`, with the settlement of the
 * decision a `revoking` state names). A rule this CLI does not know is shown as its keys and values.
 */
export function describeAlertState(
  rule: string,
  state: Record<string, unknown>,
  now: number,
  timeZone: string,
  account: { readonly address: string; readonly killSwitchSettlement: DecisionSettlement | null },
): [string, string][] {
  const time = (ms: number) => formatTime(ms, timeZone);
  const killSwitch = rule === KILL_SWITCH_RULE ? killSwitchStateSchema.safeParse(state) : null;
  if (killSwitch?.success) return [['kill switch', killSwitchStateText(killSwitch.data, account.address, account.killSwitchSettlement)]];
  const snooze = rule === SNOOZE_RULE ? snoozeStateSchema.safeParse(state) : null;
  if (snooze?.success) {
    return [
      [
        'snooze',
        snooze.data.until > now
          ? `drawdown alerts snoozed for all recipients until ${time(snooze.data.until)}`
          : `no account-wide snooze (the last one ended ${time(snooze.data.until)})`,
      ],
    ];
  }
  const perRecipient = rule === RECIPIENT_SNOOZES_RULE ? recipientSnoozesStateSchema.safeParse(state) : null;
  if (perRecipient?.success) {
    const running = Object.entries(activeSnoozes(perRecipient.data.recipients, now)).sort(([a], [b]) => a.localeCompare(b));
    if (running.length === 0) return [['snooze', 'no recipient snoozed']];
    return running.map(([email, until]) => ['snooze', `drawdown alerts snoozed for ${email} until ${time(until)}`]);
  }
  const drawdown = rule === 'drawdown' ? drawdownStateSchema.safeParse(state) : null;
  if (drawdown?.success) {
    const levels = Object.entries(drawdown.data.levels).sort(([a], [b]) => Number(a) - Number(b));
    if (levels.length === 0) return [['drawdown', 'no level evaluated yet']];
    return levels.map(([level, s]) => {
      // A breach recorded silently at the first evaluation: no alert will come for it (no storm).
      if (s.status === 'breached' && s.baseline === true) {
        return [
          `drawdown ${level}%`,
          `already breached when tracking began${s.breachedAt === null ? '' : ` (recorded ${time(s.breachedAt)})`}: no alert for this level until it recovers (digests list it among the open alerts)`,
        ];
      }
      const parts = [s.status === 'breached' ? `breached${s.breachedAt === null ? '' : ` since ${time(s.breachedAt)}`}` : 'armed'];
      // No stored `lastValue`: it is written only when a level changes state, so it lags the
      // current drawdown (`status` prints that on its own line).
      parts.push(s.lastSentAt === null ? 'no alert sent yet' : `last alert ${time(s.lastSentAt)}`);
      return [`drawdown ${level}%`, parts.join(', ')];
    });
  }
  const fields = Object.entries(state).map(([k, v]) => `${k} ${typeof v === 'number' && v > 1e12 ? time(v) : JSON.stringify(v)}`);
  return [[rule, fields.join(', ')]];
}
