import type { RevokeAllNextStep } from './revokeAllNextStep';

/** Where the advice is read: on the revoke-all result page (its retry form below it), or in the batch's result notice. */
export type RevokeAllAdviceReader = 'page' | 'notice';

/**
 * What to do about the keys a revoke-all batch did not remove, one sentence per next step that
 * applies, in words true of each: only keys that sent nothing for a passing reason, from a link
 * that still works, can be tried again from its page; a refused or rejected key needs a new link
 * (the desk page's Revoke all button, a newer alert's Revoke-all link, or `sentinel link revoke`);
 * a key that may have been sent is checked first. `account`: the batch's, named in the commands.
 * Empty when every key is removed (or queued).
 */
export function revokeAllAdvice(steps: readonly (RevokeAllNextStep | null)[], reader: RevokeAllAdviceReader, account: string): string[] {
  const count = (step: RevokeAllNextStep): number => steps.filter((s) => s === step).length;
  const advice: string[] = [];
  const retry = count('retry-on-page');
  if (retry > 0) {
    const them = retry === 1 ? 'it' : 'them';
    advice.push(
      reader === 'page'
        ? `${keys(retry)} can be tried again with the button below: nothing was sent for ${them}, for a reason that may have passed. Keys already removed are never sent twice.`
        : `${keys(retry)} can be tried again from the revoke-all page: nothing was sent for ${them}, for a reason that may pass. Open the same revoke-all link again (it works for 72 hours after it was sent) and press “Try the others again”; keys already removed are never sent twice.`,
    );
  }
  const renewed = count('new-link');
  if (renewed > 0) {
    advice.push(
      `${keys(renewed)} cannot be tried again from this link (the signing side or the chain refused ${renewed === 1 ? 'it' : 'them'}, or the link no longer works). ` +
        `Use a new link: the Revoke all button of the account on the desk page, the Revoke-all link of a newer alert, or a one-key link an operator makes with sentinel link revoke ${account} <delegate>.`,
    );
  }
  const check = count('check-delegates');
  if (check > 0) {
    advice.push(
      `For ${keys(check).toLowerCase()} a transaction may have been sent: check the account's delegates (the desk page, or sentinel delegates list ${account}) before trying again.`,
    );
  }
  return advice;
}

function keys(n: number): string {
  return n === 1 ? 'One key' : `${n} keys`;
}
