import type { RefusalCode } from '../domain/decisionCheck';
import type { DecisionResult } from '../domain/decisionResult';
import { formatTime } from '../mail/render/format';
import type { NotifyMessage } from '../messages/notifyMessage';
import { revokeAllLink, wordedEmailBase } from './emailParts';
import { protectionResultHead } from './protectionResultHead';
import { killSwitchIncidentKey } from './killSwitchPresenter';
import { delegateIncidentKey } from './newDelegatePresenter';
import type { NoticeInput } from './noticeInput';
import type { NoticePresenter } from './noticePresenter';
import { accountField, namesWithin, revokeAllLinks } from './noticeParts';
import { noticeWords, type NoticeText } from './noticeText';

type DecisionResultMessage = Extract<NotifyMessage, { kind: 'decision-result' }>;

/** The words of a result notice, shared by the email and every channel. */
export interface DecisionResultNoticeText extends NoticeText {
  /** One line per delegate of the decision: who, and what became of it. */
  readonly rows: readonly { readonly who: string; readonly status: DecisionResult['units'][number]['status']; readonly text: string }[];
  /** Whether the notice should offer the Revoke-all link: some key may still trade the account. */
  readonly actNow: boolean;
}

/** A refusal or failure in three words, for a title. */
const HEADLINES: Readonly<Record<RefusalCode, string>> = {
  invalid: 'the decision did not hold',
  'dry-run-decision': 'the decision was a dry run',
  aged: 'it could not be signed in time',
  'protection-off': 'protection was turned off',
  'not-tracked': 'the account is no longer tracked',
  'not-armed': 'the account was disarmed',
  'account-dry-run': 'the account went to dry run',
  kept: 'the key is kept',
  'known-key': 'the key is a known key',
  'breaker-open': 'the breaker was open',
  capped: 'the daily cap was reached',
  'web-session': 'the key is now a web session',
};

const who = (key: { address: string; name: string | null }): string => (key.name ? `"${key.name}" (${key.address})` : key.address);
const keys = (n: number): string => `${n} key${n === 1 ? '' : 's'}`;

/** Characters the keys still listed may take in their line (a paragraph is at most 2,000). */
const LEFT_LINE_CHARS = 1_500;

/**
 * The title, severity and paragraphs of the result of an automatic revocation: what was revoked,
 * what was refused or failed and why (in a desk's words), which keys can still trade the account,
 * and what to do now (the Revoke-all link; how the kill switch re-arms, or whether an unknown key
 * is judged again). Every key not revoked makes it critical.
 */
export function decisionResultNoticeText(result: DecisionResult, ctx: { account: string; time: (ms: number) => string }): DecisionResultNoticeText {
  const unlisted = result.unlisted ?? { revoked: 0, gone: 0, refused: 0, failed: 0, left: 0 };
  const unlistedRemoved = unlisted.revoked + unlisted.gone;
  const unlistedMissed = unlisted.refused + unlisted.failed;
  const removed = result.units.filter((u) => u.status === 'revoked' || u.status === 'gone').length + unlistedRemoved;
  const total = result.units.length + unlistedRemoved + unlistedMissed;
  const missed = total - removed;
  const first = result.units.find((u) => u.status === 'refused' || u.status === 'failed');
  const headline = first === undefined ? '' : first.refusal === null ? 'the revocation failed' : HEADLINES[first.refusal];
  const killSwitch = result.rule === 'kill-switch';
  const title = killSwitch
    ? missed === 0
      ? `Kill switch: ${keys(removed)} revoked`
      : removed === 0
        ? `Kill switch fired, keys NOT revoked: ${headline}`
        : `Kill switch: ${removed} of ${keys(total)} revoked, ${missed} NOT revoked`
    : missed === 0
      ? result.units[0]?.status === 'gone'
        ? 'Unknown key already gone'
        : 'Unknown key revoked'
      : `Unknown key NOT revoked: ${headline}`;
  const left = result.left;
  const lines: string[] = [];
  const others = unlistedRemoved + unlistedMissed;
  if (others > 0)
    lines.push(
      `This notice names ${result.units.length} of the decision's ${total} keys, those not revoked first; ${
        unlistedMissed === 0
          ? `the other ${others} were all revoked.`
          : unlistedRemoved === 0
            ? `the other ${others} were NOT revoked either.`
            : `of the other ${others}, ${unlistedRemoved} were revoked and ${unlistedMissed} NOT.`
      }`,
    );
  if (left === null) lines.push(`The chain could not be read afterwards: check which keys can still trade ("sentinel delegates list ${ctx.account}").`);
  else if (left.length + unlisted.left === 0) lines.push('No key is listed any more: only the owner key can trade this account.');
  else
    lines.push(
      `Still able to trade this account: ${namesWithin(
        left.map((k) => `${who(k)}${k.isWebClient ? ' (web session)' : ''}`),
        LEFT_LINE_CHARS,
        (more) => `${more} more key${more === 1 ? '' : 's'} ("sentinel delegates list ${ctx.account}" lists each)`,
        unlisted.left,
      )}.`,
    );
  const actNow = missed > 0 || left === null || left.length + unlisted.left > 0;
  if (actNow) lines.push('To stop them now, use the Revoke-all link: it lists the current keys and revokes each, signed like a click.');
  if (killSwitch) {
    lines.push(
      removed === 0
        ? `Nothing of the kill switch's daily cap was spent. It holds until the drawdown recovers past the re-arm margin; "sentinel accounts rearm ${ctx.account}" arms it again now (it then fires at the next poll if the level still holds).`
        : `The kill switch holds until the drawdown recovers past the re-arm margin, or "sentinel accounts rearm ${ctx.account}".`,
      'Revoking keys cancels nothing: resting orders, TWAPs and open positions stay. Cancel or close them from the owner account.',
    );
  } else if (missed > 0) {
    lines.push(
      result.judgedAgainAt === null
        ? 'It is not tried again automatically: revoke it with the link unless someone on the desk added it.'
        : `It is judged again at the first check after ${ctx.time(result.judgedAgainAt)}.`,
    );
  }
  return {
    title,
    summary: `Result of the automatic revocation (${result.reason}): ${removed} revoked, ${missed} not.`,
    severity: missed > 0 ? 'critical' : 'info',
    lines,
    rows: result.units.map((u) => ({ who: who(u), status: u.status, text: u.text })),
    actNow,
  };
}

function words(message: DecisionResultMessage, input: NoticeInput) {
  return decisionResultNoticeText(message.result, { account: input.account.address, time: (ms) => formatTime(ms, input.account.timezone) });
}

/** An automatic decision settled: what was revoked, refused or failed and why, what is left. */
export const decisionResultPresenter: NoticePresenter<DecisionResultMessage> = {
  // A key the breaker kept: the operators are told too, as of the firing.
  head: ({ result }) =>
    protectionResultHead(
      'revocation.result',
      'decision-result',
      result.units.some((u) => u.refusal === 'breaker-open'),
    ),
  present(message, input) {
    const { result } = message;
    const text = words(message, input);
    const key =
      result.rule === 'kill-switch'
        ? killSwitchIncidentKey(input.account.address, result.decisionId)
        : delegateIncidentKey(input.account.address, result.units[0]?.address ?? '');
    const removed = text.severity !== 'critical';
    return {
      ...noticeWords(text),
      fields: [
        accountField(input),
        ...text.rows
          .slice(0, 8)
          .map((r) => ({ label: r.who, value: `${r.status === 'revoked' || r.status === 'gone' ? r.status : 'NOT revoked'}: ${r.text}` })),
      ],
      links: text.actNow ? revokeAllLinks(input) : [],
      // A key not revoked keeps its incident open (same key: the pager updates it); an unknown key removed closes its own.
      incident: !removed ? { key, action: 'trigger' } : result.rule === 'unknown-delegate' ? { key, action: 'resolve' } : null,
      details: { result },
    };
  },
  email(message, input, mail) {
    const text = words(message, input);
    return {
      kind: 'decision-result',
      view: {
        ...wordedEmailBase(input, mail, text),
        rows: text.rows.map((r) => ({ ...r })),
        critical: text.severity === 'critical',
        settledAtMs: message.at,
        revokeAll: text.actNow ? revokeAllLink(input) : null,
      },
    };
  },
};
