import type { NotifyMessage } from '../messages/notifyMessage';
import { emailBase } from './emailParts';
import type { NoticePresenter } from './noticePresenter';
import type { NoticeInput } from './noticeInput';
import { accountField } from './noticeParts';
import { revokeAllAdvice } from '../domain/revokeAllAdvice';

type RevokeAllResult = Extract<NotifyMessage, { kind: 'revoke-all-result' }>;

function removedCount(message: RevokeAllResult): number {
  return message.units.filter((u) => u.outcome === 'revoked' || u.outcome === 'already-revoked').length;
}

/**
 * The account's delegates still listed that the batch did not include (more than a page held, or
 * added since), as collection last saw them when the notice is made; 0 where they were not loaded.
 */
function leftCount(message: RevokeAllResult, input: NoticeInput): number {
  const inBatch = new Set(message.units.map((u) => u.address.toLowerCase()));
  return (input.listedDelegates ?? []).filter((d) => !inBatch.has(d.toLowerCase())).length;
}

function leftText(left: number): string {
  return `${left} more API ${left === 1 ? 'key is' : 'keys are'} still listed on this account and ${left === 1 ? 'was' : 'were'} not in this batch: open the revoke-all link again (while it works) to revoke the next ones, or use a new link (the Revoke all button of the account on the desk page).`;
}

/**
 * What to do about the keys not removed, in the words of each key's next step. A message queued
 * before the steps were written carries none: it gets the general wording, true of every kind.
 */
function adviceOf(message: RevokeAllResult, account: string): string[] {
  if (message.units.some((u) => u.next === undefined && u.outcome !== 'revoked' && u.outcome !== 'already-revoked')) {
    return [
      'Open the revoke-all link again: a key for which nothing was sent, for a reason that may pass, can be tried again from its page while the link works; a key refused by the signing side or the chain needs a new link (the Revoke all button of the account on the desk page, or the Revoke-all link of a newer alert).',
    ];
  }
  return revokeAllAdvice(
    message.units.map((u) => u.next ?? null),
    'notice',
    account,
  );
}

/** What became of each key a revoke-all page listed, and what to do about the ones left. */
export const revokeAllResultPresenter: NoticePresenter<RevokeAllResult> = {
  head: () => ({ type: 'revocation.result', category: 'security', email: 'revoke-all-result', loads: { delegateViews: true } }),
  present(message, input) {
    const removed = removedCount(message);
    const all = removed === message.units.length;
    const left = leftCount(message, input);
    const title = all
      ? left === 0
        ? `All ${message.units.length} API keys revoked`
        : `${message.units.length} API ${message.units.length === 1 ? 'key' : 'keys'} revoked, ${left} more still listed`
      : `${message.units.length - removed} of ${message.units.length} API keys not revoked`;
    const summary = all
      ? ['Every key the revoke-all page listed can no longer trade this account.', ...(left === 0 ? [] : [leftText(left)])]
      : ['Some keys may still trade this account.', ...adviceOf(message, input.account.address), ...(left === 0 ? [] : [leftText(left)])];
    return {
      severity: !all ? 'critical' : left === 0 ? 'info' : 'warning',
      title,
      summary: summary.join(' '),
      fields: [accountField(input), ...message.units.slice(0, 8).map((u) => ({ label: u.address, value: u.text }))],
      links: [],
      incident: null,
      details: { units: message.units },
    };
  },
  email(message, input, mail) {
    return {
      kind: 'revoke-all-result',
      view: {
        ...emailBase(input, mail),
        rows: message.units.map((u) => ({
          name: mail.delegateName(u.address),
          address: u.address,
          kind: mail.isWebClient(u.address) ? 'web-session' : 'api-key',
          outcome: u.outcome,
          text: u.text.slice(0, 2_000),
          nonce: u.nonce,
        })),
        removed: removedCount(message),
        left: leftCount(message, input),
        advice: adviceOf(message, input.account.address),
        settledAtMs: message.at,
      },
    };
  },
};
