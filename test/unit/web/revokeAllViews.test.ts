import { describe, expect, it } from 'vitest';
import type { RevokeAllRow } from '../../../functions/web/revokeAllPage';
import { renderRevokeAllView } from '../../../functions/web/revokeAllViews';
import { MAX_REVOKE_ALL_BATCH } from '../../../functions/domain/revokeAllUnit';
import { unescapeHtml } from '../../support/htmlText';

const ACCOUNT = { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', label: 'Main', timezone: 'UTC' };
const ACTION = 'https://links.example.com/revoke-all';
const AT = Date.UTC(2026, 10, 29, 20);
const key = (address: string, name: string) => ({ address, name, expiryMs: null, isWebClient: false });
const REFUSED = '0x1111111111111111111111111111111111111111';
const UNSENT = '0x2222222222222222222222222222222222222222';
const rows: RevokeAllRow[] = [
  {
    key: key(REFUSED, 'stale-bot'),
    unit: { state: 'done', attempt: 1, at: AT, outcome: { kind: 'not-authorized', sent: false, refusal: 'link-stale' } },
    next: 'new-link',
  },
  {
    key: key(UNSENT, 'busy-bot'),
    unit: { state: 'done', attempt: 1, at: AT, outcome: { kind: 'chain-unreachable', sent: false, message: 'timeout' } },
    next: 'retry-on-page',
  },
];

const NO_REST = { count: 0, next: [], form: null, full: false, perLink: MAX_REVOKE_ALL_BATCH };
const DONE = {
  state: 'done' as const,
  attempt: 1,
  at: AT,
  outcome: { kind: 'revoked' as const, sent: true as const, nonce: 7, transactionSignature: `0x${'ab'.repeat(65)}` },
};
const keyAt = (i: number) => key(`0x${(i + 1).toString(16).padStart(40, '0')}`, `bot-${i}`);

/** The text of a page's body, tags dropped. */
function textOf(page: string): string {
  return unescapeHtml(page.replace(/<[^>]+>/g, '').replace(/\s+/g, ' '));
}

describe('the revoke-all result page', () => {
  it('offers again only the keys that sent nothing for a passing reason, and says a refused key needs a new link', () => {
    const page = renderRevokeAllView(
      {
        kind: 'result',
        account: ACCOUNT,
        rows,
        pending: false,
        selfUrl: ACTION,
        retry: { token: 't', keys: UNSENT, csrf: 'c' },
        withdrawn: null,
        untracked: false,
        rest: NO_REST,
      },
      ACTION,
    );
    const text = textOf(page.html);
    expect(text).not.toContain('The keys marked “not sent” can be tried again');
    expect(text).toContain('One key can be tried again with the button below: nothing was sent for it');
    expect(text).toContain('One key cannot be tried again from this link (the signing side or the chain refused it');
    expect(text).toContain('the Revoke all button of the account on the desk page');
    expect(text).toContain(`sentinel link revoke ${ACCOUNT.address} <delegate>`);
    expect(page.html).toContain(`<input type="hidden" name="keys" value="${UNSENT}">`);
  });

  it("of an account no longer tracked: says so, offers nothing again, and sends the keys left to the exchange's web client, not to a new link", () => {
    const page = renderRevokeAllView(
      {
        kind: 'result',
        account: { ...ACCOUNT, label: null },
        // As the page builds them for an account no longer tracked: its link works no more.
        rows: rows.map((r) => ({ ...r, next: 'new-link' as const })),
        pending: false,
        selfUrl: ACTION,
        retry: null,
        withdrawn: null,
        untracked: true,
        rest: NO_REST,
      },
      ACTION,
    );
    const text = textOf(page.html);
    expect(text).toContain('Portfolio Sentinel no longer tracks this account. This link sends nothing more');
    expect(text).not.toContain('can be tried again with the button below');
    expect(text).toContain(
      `Portfolio Sentinel makes no new link for an account it no longer tracks: check its delegates and revoke the keys left in the exchange's web client, or track it again (sentinel accounts add ${ACCOUNT.address}) for new links.`,
    );
    // Not the ways to a new link, which need the account tracked.
    expect(text).not.toContain('cannot be tried again from this link');
    expect(text).not.toContain('desk page');
    expect(page.html).not.toMatch(/<form/);
  });
});

describe('an account with more API keys than one page holds', () => {
  it('the confirmation says how many there are and that this page removes the first 50; the button does not say "all"', () => {
    const keys = Array.from({ length: 50 }, (_, i) => keyAt(i));
    const page = renderRevokeAllView(
      { kind: 'confirm', account: ACCOUNT, keys, more: 13, token: 't', csrf: 'c', linkExpiresAt: AT + 3_600_000, now: AT },
      ACTION,
    );
    const text = textOf(page.html);
    expect(text).toContain("Revoke 50 of the account's 63 API keys?");
    expect(text).toContain(
      'This account has 63 API keys; one page removes at most 50. These are the first 50 by address. Once they are done, this page offers the other 13.',
    );
    expect(page.html).toContain('Revoke these 50 API keys');
    expect(text).not.toContain('Revoke all');
    // An account that fits one page reads as before.
    const few = textOf(
      renderRevokeAllView({ kind: 'confirm', account: ACCOUNT, keys: keys.slice(0, 2), more: 0, token: 't', csrf: 'c', linkExpiresAt: AT, now: AT }, ACTION)
        .html,
    );
    expect(few).toContain('Revoke all 2 API keys');
    expect(few).not.toContain('one page removes');
  });

  it('a settled batch with keys still listed is not "All API keys revoked": it lists the next ones with their own form', () => {
    const next = [keyAt(50), keyAt(51)];
    const page = renderRevokeAllView(
      {
        kind: 'result',
        account: ACCOUNT,
        rows: [{ key: keyAt(0), unit: DONE, next: null }],
        pending: false,
        selfUrl: ACTION,
        retry: null,
        withdrawn: null,
        untracked: false,
        rest: { count: 2, next, form: { token: 't', keys: next.map((k) => k.address).join(','), csrf: 'c2' }, full: false, perLink: MAX_REVOKE_ALL_BATCH },
      },
      ACTION,
    );
    const text = textOf(page.html);
    expect(text).toContain('More API keys to revoke: 2 still listed');
    expect(text).not.toContain('All API keys revoked');
    expect(text).toContain('2 API keys of this account are still listed and were not in this batch');
    expect(text).toContain('bot-51');
    expect(page.html).toContain('Revoke the next 2 API keys');
    expect(page.html).toContain(`<input type="hidden" name="keys" value="${next.map((k) => k.address).join(',')}">`);
  });

  it('a full batch sends the rest to a new link; a pending one offers nothing yet; none left reads "All API keys revoked"', () => {
    const base = {
      kind: 'result' as const,
      account: ACCOUNT,
      rows: [{ key: keyAt(0), unit: DONE, next: null }],
      selfUrl: ACTION,
      retry: null,
      withdrawn: null,
      untracked: false,
    };
    const full = textOf(
      renderRevokeAllView({ ...base, pending: false, rest: { count: 5, next: [], form: null, full: true, perLink: MAX_REVOKE_ALL_BATCH } }, ACTION).html,
    );
    expect(full).toContain('This link has revoked the most keys one link does (200). Use a new link: the Revoke all button of the account on the desk page');
    const pending = renderRevokeAllView(
      { ...base, pending: true, rest: { count: 5, next: [], form: null, full: false, perLink: MAX_REVOKE_ALL_BATCH } },
      ACTION,
    );
    expect(textOf(pending.html)).toContain('Revoking API keys…');
    expect(textOf(pending.html)).not.toContain('still listed');
    expect(textOf(renderRevokeAllView({ ...base, pending: false, rest: NO_REST }, ACTION).html)).toContain('All API keys revoked');
  });
});
