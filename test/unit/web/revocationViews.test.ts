import { describe, expect, it } from 'vitest';
import type { RevocationSubject } from '../../../functions/web/revocationPage';
import { renderRevocationView } from '../../../functions/web/revocationViews';

const subject: RevocationSubject = {
  account: { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', label: 'Main', timezone: 'UTC', hasSigner: true },
  delegate: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', name: 'bot', expiryMs: null, isWebClient: false, known: true },
  linkExpiresAt: Date.UTC(2026, 10, 30),
};
const ACTION = 'https://links.example.com/revoke';
const USED_AT = Date.UTC(2026, 10, 29, 19, 0);
const REFUSED_AT = Date.UTC(2026, 10, 29, 19, 1);

/** The text of a page's body, tags dropped. */
function textOf(page: string): string {
  return page
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .replace(/&#39;/g, "'");
}

describe('a used revocation link the signer refused', () => {
  it('says when it was used, that it was refused and why, that nothing was sent, and how to get a new link, with 409', () => {
    const page = renderRevocationView(
      {
        kind: 'link-used',
        consumedAt: USED_AT,
        subject,
        outcome: { result: { kind: 'not-authorized', sent: false, refusal: 'links-revoked' }, at: REFUSED_AT },
      },
      ACTION,
    );
    expect(page.status).toBe(409);
    const text = textOf(page.html);
    expect(text).toContain('This link was used: the revocation was refused');
    expect(text).toContain('This link was used Sun, 29 Nov 2026, 19:00 UTC to revoke the delegate “bot” of Main (0xf39F…2266).');
    expect(text).toContain(
      'Portfolio Sentinel refused to sign it (Sun, 29 Nov 2026, 19:01 UTC): the chat channel the link was posted to withdrew its links meanwhile. Nothing was sent to the chain',
    );
    expect(text).toContain(`sentinel link revoke ${subject.account.address} ${subject.delegate.address}`);
    expect(text).toContain('the newest notice');
    expect(text).not.toContain('not known');
  });

  it('words each reason, and names no account when the page does not know it (a withdrawn link)', () => {
    const reasons = {
      'channel-removed': 'the chat channel the link was posted to was removed meanwhile',
      'link-expired': 'the link expired before it could be signed',
      'link-stale': 'the signing started more than a minute after the link was used',
      'already-used': 'the link had already been used for another attempt',
    } as const;
    for (const [refusal, words] of Object.entries(reasons)) {
      const text = textOf(
        renderRevocationView(
          {
            kind: 'link-used',
            consumedAt: USED_AT,
            outcome: { result: { kind: 'not-authorized', sent: false, refusal: refusal as keyof typeof reasons }, at: REFUSED_AT },
          },
          ACTION,
        ).html,
      );
      expect(text).toContain(`: ${words}. Nothing was sent to the chain`);
      expect(text).toContain('to revoke the delegate.');
      expect(text).toContain('sentinel link revoke &lt;account&gt; &lt;delegate&gt;');
    }
  });

  it('says "not known yet" only while no outcome is kept; a refusal stored without a reason reads as a plain use', () => {
    const pending = textOf(renderRevocationView({ kind: 'link-used', consumedAt: USED_AT, subject, outcome: null }, ACTION).html);
    expect(pending).toContain('Its result is not known here yet');
    const old = textOf(
      renderRevocationView(
        { kind: 'link-used', consumedAt: USED_AT, subject, outcome: { result: { kind: 'not-authorized', sent: false }, at: REFUSED_AT } },
        ACTION,
      ).html,
    );
    expect(old).toContain('Nothing was sent to the chain (Sun, 29 Nov 2026, 19:01 UTC).');
  });

  it("an untracked account's used link whose result is not known sends the reader to the exchange, not to `sentinel status` or an email that will not come", () => {
    const text = textOf(renderRevocationView({ kind: 'link-used', consumedAt: USED_AT, outcome: null }, ACTION).html);
    expect(text).toContain('Its result is not known here yet, and the account is no longer tracked here, so no confirmation email follows');
    expect(text).toContain("the exchange's web client");
    expect(text).not.toContain('sentinel status');
    expect(text).not.toContain('check the confirmation email');
  });

  it('the first answer says why when the signer gave a reason', () => {
    const page = renderRevocationView({ kind: 'not-authorized', refusal: 'link-stale' }, ACTION);
    expect(page.status).toBe(403);
    expect(textOf(page.html)).toContain(
      'Portfolio Sentinel refused to sign this revocation: the signing started more than a minute after the link was used. This attempt sent nothing to the chain, and this link will not work again.',
    );
  });
});
