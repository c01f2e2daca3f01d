import { describe, expect, it } from 'vitest';
import type { RevokeAllUnit } from '../../../functions/domain/revokeAllUnit';
import { revokeAllSettlement } from '../../../functions/domain/revokeAllSettlement';
import { notifyMessageSchema } from '../../../functions/messages/notifyMessage';
import { ACCOUNT, renderedAlert } from '../../support/channels/noticeFixtures';

const AT = Date.UTC(2026, 10, 29, 20);
const KEY_A = '0x1111111111111111111111111111111111111111';
const KEY_B = '0x2222222222222222222222222222222222222222';
const KEY_C = '0x3333333333333333333333333333333333333333';

const revoked: RevokeAllUnit = {
  state: 'done',
  attempt: 1,
  at: AT,
  outcome: { kind: 'revoked', sent: true, nonce: 7, transactionSignature: `0x${'a'.repeat(130)}` },
};
const chainDown: RevokeAllUnit = { state: 'done', attempt: 1, at: AT, outcome: { kind: 'chain-unreachable', sent: false, message: 'timeout' } };
const refused = (refusal: 'links-revoked' | 'link-stale'): RevokeAllUnit => ({
  state: 'done',
  attempt: 1,
  at: AT,
  outcome: { kind: 'not-authorized', sent: false, refusal },
});

/** The result notice and email of a settled batch, as the worker announces it and notify presents it. */
function resultOf(units: Record<string, RevokeAllUnit>) {
  const settled = revokeAllSettlement('batch-token', units);
  if (settled === null) throw new Error('the batch is not settled');
  const message = notifyMessageSchema.parse({
    kind: 'revoke-all-result',
    eventId: `revoke-all-result#${ACCOUNT}#${settled.key}`,
    account: ACCOUNT,
    at: AT,
    units: settled.rows.map((r) => ({ address: r.address, outcome: r.outcome, text: r.text, nonce: r.nonce, next: r.next })),
  });
  const { notice, mail } = renderedAlert(message, 'revoke-all-result', null);
  return { summary: notice.summary, html: mail.html, text: mail.text.replace(/\s+/g, ' ') };
}

const RETRY_FROM_PAGE = /can be tried again from the revoke-all page|tried again from that page|can try the ones that sent nothing again/;

describe('the revoke-all result notice says what can be done about each key left', () => {
  it('keys the signing side refused are not offered a retry from the page: they need a new link, named as the docs name it', () => {
    // The chat channel withdrew the link while the batch ran: one key refused, the other sent nothing, and the link is dead for both.
    const { summary, text, html } = resultOf({ [KEY_A]: refused('links-revoked'), [KEY_B]: chainDown, [KEY_C]: revoked });
    for (const words of [summary, text]) {
      expect(words).not.toMatch(RETRY_FROM_PAGE);
      expect(words).toContain('2 keys cannot be tried again from this link');
      expect(words).toContain('the Revoke all button of the account on the desk page');
      expect(words).toContain(`sentinel link revoke ${ACCOUNT} <delegate>`);
    }
    expect(html).toContain(`sentinel link revoke ${ACCOUNT} &lt;delegate&gt;`);
    expect(summary.startsWith('Some keys may still trade this account.')).toBe(true);
  });

  it('a key that sent nothing for a passing reason is offered again from the page; a key refused alone still needs a new link', () => {
    const { summary, text } = resultOf({ [KEY_A]: refused('link-stale'), [KEY_B]: chainDown, [KEY_C]: revoked });
    for (const words of [summary, text]) {
      expect(words).toContain('One key can be tried again from the revoke-all page: nothing was sent for it');
      expect(words).toContain('“Try the others again”');
      expect(words).toContain('One key cannot be tried again from this link (the signing side or the chain refused it');
    }
  });

  it('a key whose signing may have been sent is to be checked, not tried again', () => {
    const unknown: RevokeAllUnit = { state: 'unknown', attempt: 1, at: AT, message: 'the signing call failed' };
    const { summary, text } = resultOf({ [KEY_A]: unknown, [KEY_C]: revoked });
    for (const words of [summary, text]) {
      expect(words).not.toMatch(RETRY_FROM_PAGE);
      expect(words).not.toContain('cannot be tried again');
      expect(words).toContain(
        `For one key a transaction may have been sent: check the account's delegates (the desk page, or sentinel delegates list ${ACCOUNT})`,
      );
    }
  });
});
