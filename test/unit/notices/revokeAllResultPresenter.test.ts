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
function resultOf(units: Record<string, RevokeAllUnit>, listedDelegates?: readonly string[]) {
  const settled = revokeAllSettlement('batch-token', units);
  if (settled === null) throw new Error('the batch is not settled');
  const message = notifyMessageSchema.parse({
    kind: 'revoke-all-result',
    eventId: `revoke-all-result#${ACCOUNT}#${settled.key}`,
    account: ACCOUNT,
    at: AT,
    units: settled.rows.map((r) => ({ address: r.address, outcome: r.outcome, text: r.text, nonce: r.nonce, next: r.next })),
  });
  const { notice, mail } = renderedAlert(message, 'revoke-all-result', null, listedDelegates === undefined ? {} : { listedDelegates });
  return {
    title: notice.title,
    severity: notice.severity,
    summary: notice.summary,
    subject: mail.subject,
    html: mail.html,
    text: mail.text.replace(/\s+/g, ' '),
  };
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

describe('the revoke-all result of an account that lists more keys than the batch held', () => {
  const KEY_D = '0x4444444444444444444444444444444444444444';
  const KEY_E = '0x5555555555555555555555555555555555555555';

  it('is not "all revoked" while keys beyond the batch are still listed, in the notice and the email', () => {
    // The batch's keys are still listed until the next poll sees them gone: only the others count.
    const { title, severity, summary, subject, text, html } = resultOf({ [KEY_A]: revoked, [KEY_C]: revoked }, [
      KEY_A,
      KEY_C.toUpperCase().replace('0X', '0x'),
      KEY_D,
      KEY_E,
    ]);
    expect(title).toBe('2 API keys revoked, 2 more still listed');
    expect(severity).toBe('warning');
    expect(summary).toContain('2 more API keys are still listed on this account and were not in this batch: open the revoke-all link again');
    expect(subject).toContain('2 API keys revoked on');
    expect(subject).toContain('2 more still listed');
    expect(subject).not.toContain('All');
    expect(text).toContain('2 keys revoked, but 2 more keys are still listed on this account and were not in this batch');
    expect(text).not.toContain('Every key revoked');
    expect(html).toMatch(/<h1[^>]*>2 keys revoked, 2 more still listed<\/h1>/);
    expect(html).toMatch(/class="banner banner-warning"[^>]*><strong>2 more keys are still listed on this account and were not in this batch\.<\/strong>/);
  });

  it('with none beyond the batch it reads as before; a failed batch names the keys left too', () => {
    const done = resultOf({ [KEY_A]: revoked }, [KEY_A]);
    expect(done.title).toBe('All 1 API keys revoked');
    expect(done.severity).toBe('info');
    expect(done.text).toContain('Every key revoked');
    const failed = resultOf({ [KEY_A]: chainDown, [KEY_C]: revoked }, [KEY_A, KEY_C, KEY_D]);
    expect(failed.title).toBe('1 of 2 API keys not revoked');
    expect(failed.summary).toContain('1 more API key is still listed on this account and was not in this batch');
    expect(failed.text).toContain('1 more key is still listed on this account and was not in this batch');
  });
});
