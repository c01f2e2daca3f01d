import { describe, expect, it } from 'vitest';
import type { RevokeAllRow } from '../../../functions/web/revokeAllPage';
import { renderRevokeAllView } from '../../../functions/web/revokeAllViews';
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
