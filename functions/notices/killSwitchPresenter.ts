import { firingKeys, type KeptBecause, type KillSwitchFiring } from '../domain/killSwitchFiring';
import type { NoticeSeverity } from '../domain/notice';
import { formatPercent, formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { revokeAllLink, wordedEmailBase } from './emailParts';
import { protectionResultHead } from './protectionResultHead';
import type { NoticeInput } from './noticeInput';
import type { NoticePresenter } from './noticePresenter';
import { accountField, namesWithin, revokeAllLinks } from './noticeParts';
import { noticeWords, type NoticeText } from './noticeText';

type KillSwitchMessage = Extract<NotifyMessage, { kind: 'kill-switch' }>;

/**
 * The pager incident of one kill-switch firing, named by its decision (`decisionId`): the firing's
 * notice and its decision's result (when it left keys) share it, and a later firing (re-armed, the
 * earlier incident still open) opens an incident of its own, so it pages again. A firing that made
 * no decision (protection off, capped, breaker open, nothing to revoke) is named by when it was measured.
 */
export function killSwitchIncidentKey(account: string, firing: string): string {
  return `kill-switch:${account.toLowerCase()}:${firing}`;
}

/** What names a firing in its incident key: its decision, else `at-<asOf>`. */
export function killSwitchFiringName(firing: KillSwitchFiring): string {
  const outcome = firing.action.kind === 'requested' ? firing.action.outcome : null;
  return outcome && 'decisionId' in outcome ? outcome.decisionId : `at-${firing.asOf}`;
}

/** The words of a kill-switch notice, shared by the email and every channel; its lines say what was done and why, what stays, what to do. */
export interface KillSwitchNoticeText extends NoticeText {
  /** Whether the keys are being revoked (the signer's result follows; the Revoke-all link stays). */
  readonly revoking: boolean;
  /** The delegates the notice lists, each as `"name" (address)`: being revoked, or that would have been. */
  readonly delegates: readonly string[];
}

const STAYS =
  'Revoking keys cancels nothing: resting orders, TWAPs and open positions stay. Cancel the orders and TWAPs and close or hedge the positions from the owner account, or the loss can go on.';

/**
 * The title, severity and paragraphs of a kill-switch notice: revoked (queued), would have
 * revoked (dry run), or not revoked and why (protection off stage-wide, not armed, cap, breaker,
 * not set up). Every one says what revocation leaves behind and how to re-arm.
 */
export function killSwitchNoticeText(firing: KillSwitchFiring, ctx: { account: string; percent: (pct: number) => string }): KillSwitchNoticeText {
  const level = `${ctx.percent(firing.rereadPct)} ≥ ${firing.levelPct}%`;
  const summary = `The flow-adjusted drawdown is ${ctx.percent(firing.drawdownPct)} now. It crossed the kill switch's level of ${firing.levelPct}%, confirmed on the 1-minute curve: the crossing's minute and the one before it were both past the level, measured from a peak the account held for two minutes (the lower of them: ${level}).`;
  const names = new Map((firing.names ?? []).map((n) => [n.address.toLowerCase(), n.name]));
  const who = (address: string): string => {
    const name = names.get(address.toLowerCase());
    return name ? `"${name}" (${address})` : address;
  };
  const unlistedActed = firing.unlisted?.acted ?? 0;
  // Keys revoked (or that would have been) beyond those the notice names: counted in the title, said in a line.
  const unlistedLine = (named: number): string[] =>
    unlistedActed === 0 ? [] : [`This notice names ${named} of the ${named + unlistedActed} keys; the other ${unlistedActed} are treated the same way.`];
  const keysOf = (listed: number): string => {
    const n = listed + unlistedActed;
    return `${n} key${n === 1 ? '' : 's'}`;
  };
  const rearm = `The kill switch does not fire again until the drawdown recovers past the re-arm margin, or "sentinel accounts rearm ${ctx.account}".`;
  const notRevoked = 'Kill switch fired, keys NOT revoked';
  const yourself = 'Revoke the keys yourself (the revoke-all link) if the bot must stop.';
  const base = (title: string, line: string, delegates: readonly string[], revoking = false, severity: NoticeSeverity = 'critical') => ({
    title,
    summary,
    severity,
    revoking,
    delegates: delegates.map(who),
    lines: [line, ...unlistedLine(delegates.length), ...kept(firing, who), STAYS, rearm],
  });
  if (firing.action.kind === 'not-set-up')
    return base(notRevoked, `Nothing was revoked: automatic protection is not set up on this deployment. ${yourself}`, firing.requested);
  const outcome = firing.action.outcome;
  switch (outcome.kind) {
    case 'queued':
      return base(
        `Kill switch fired: ${keysOf(outcome.delegates.length)} being revoked`,
        'Every delegate but the kept ones is being revoked, one at a time, signed like a click on a revoke link; the result (revoked, or refused and why) follows once each is signed. To act at once, or if the result says a key was not revoked, use the Revoke-all link.',
        outcome.delegates,
        true,
      );
    case 'dry-run':
      return base(
        `Kill switch would have fired (dry run): ${keysOf(outcome.delegates.length)}`,
        'Dry run: these keys would have been revoked, and nothing was ("--kill-switch-dry-run off" arms it).',
        outcome.delegates,
        false,
        'warning',
      );
    case 'protection-off':
      return base(
        notRevoked,
        `Nothing was revoked: automatic protection is off for this deployment ("sentinel protection on" turns it on). ${yourself}`,
        firing.requested,
      );
    case 'not-armed':
      return base(notRevoked, `Nothing was revoked: the protection service does not hold this account as armed. ${yourself}`, firing.requested);
    case 'capped':
      return base(notRevoked, `Nothing was revoked: the cap (${outcome.cap}) is reached; past it, the kill switch alerts only. ${yourself}`, firing.requested);
    case 'breaker-open':
      return base(
        notRevoked,
        `Nothing was revoked: ${outcome.firedAccounts} accounts fired within the hour, which points to a data fault, so automatic protection acts on none and the operator is told. ${yourself}`,
        firing.requested,
      );
    case 'nothing-to-revoke':
      return base('Kill switch fired: no key to revoke', 'Nothing was revoked: every delegate is kept, announced or already gone.', [], false, 'warning');
  }
}

/** Characters the kept keys may take in their line (a line of the email is at most 1,000). */
const KEPT_LINE_CHARS = 800;

const BECAUSE: Readonly<Record<KeptBecause, string>> = { 'keep-delegate': '--keep-delegate', announced: 'announced', 'web-session': 'web session' };

/**
 * The line naming what stays listed and why: keys the account keeps (`--keep-delegate`), web
 * sessions kept, and, when the service left a requested key out of those it revokes, announced
 * ones; those the notice leaves out are counted. Empty when nothing is kept.
 */
function kept(firing: KillSwitchFiring, who: (address: string) => string): string[] {
  const parts = firingKeys(firing).kept.map((k) => `${who(k.address)} (${BECAUSE[k.because]})`);
  const unlisted = firing.unlisted?.kept ?? 0;
  const more = (n: number): string => `${n} more key${n === 1 ? '' : 's'} (the account page lists each)`;
  return parts.length + unlisted === 0 ? [] : [`Kept, not revoked: ${namesWithin(parts, KEPT_LINE_CHARS, more, unlisted)}.`];
}

function words(message: KillSwitchMessage, input: NoticeInput) {
  return killSwitchNoticeText(message.firing, { account: input.account.address, percent: (p) => formatPercent(p) });
}

/** The kill switch fired: what was revoked, or would have been, or why nothing was. */
export const killSwitchPresenter: NoticePresenter<KillSwitchMessage> = {
  head: ({ firing }) =>
    protectionResultHead('protection.kill-switch', 'kill-switch', firing.action.kind === 'requested' && firing.action.outcome.kind === 'breaker-open'),
  present(message, input) {
    const { firing } = message;
    const zone = input.account.timezone;
    const text = words(message, input);
    return {
      ...noticeWords(text),
      fields: [
        accountField(input),
        { label: 'Drawdown', value: `${formatPercent(firing.drawdownPct)} (1-minute re-read: ${formatPercent(firing.rereadPct)})` },
        { label: 'Kill level', value: `${firing.levelPct}%` },
        { label: 'Peak', value: formatTime(firing.peakAt, zone) },
        { label: 'As of', value: formatTime(firing.asOf, zone) },
        { label: text.revoking ? 'Revoking' : 'Keys', value: text.delegates.length === 0 ? '(none)' : text.delegates.join(', ') },
      ],
      // Kept while keys are being revoked: a person can act if the machine could not.
      links: revokeAllLinks(input),
      // Every firing pages, whatever was done: someone must look at the positions.
      incident: { key: killSwitchIncidentKey(input.account.address, killSwitchFiringName(firing)), action: 'trigger' },
      details: { firing },
    };
  },
  email(message, input, mail) {
    const { firing } = message;
    const text = words(message, input);
    return {
      kind: 'kill-switch',
      view: {
        ...wordedEmailBase(input, mail, text),
        revoking: text.revoking,
        dryRun: firing.action.kind === 'requested' && firing.action.outcome.kind === 'dry-run',
        delegates: [...text.delegates],
        levelPct: firing.levelPct,
        drawdownPct: firing.drawdownPct,
        rereadPct: firing.rereadPct,
        peakAtMs: firing.peakAt,
        asOfMs: firing.asOf,
        // Kept while keys are being revoked: a person can act if the machine could not.
        revokeAll: revokeAllLink(input),
      },
    };
  },
};
