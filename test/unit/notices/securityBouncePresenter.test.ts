import { describe, expect, it } from 'vitest';
import type { SecurityBounce } from '../../../functions/domain/securityBounce';
import { securityBouncePresenter } from '../../../functions/notices/securityBouncePresenter';
import { plainEmailOf } from '../../../functions/notices/plainNoticeEmail';
import before from './fixtures/eventNoticesBefore.json';

const bounce: SecurityBounce = {
  recipient: 'risk@example.com',
  accounts: [
    { address: '0x00000000000000000000000000000000000000a1', label: 'Desk <A> & "B"' },
    { address: '0x00000000000000000000000000000000000000a2', label: null },
  ],
  bounceType: 'Permanent',
  bounceSubType: 'General',
  diagnostic: 'smtp; 550 5.7.1 <b>TLS</b> required',
  status: '5.7.1',
  bouncedAt: '2025-03-04T07:00:00.000Z',
};

const securityBounceNotice = (b: SecurityBounce) => securityBouncePresenter.email({ id: 'security-bounce:x#risk@example.com', bounce: b, at: 0 });

describe('securityBouncePresenter', () => {
  it('names the address, each account (with its label), the bounce and what to do, in text and escaped HTML', () => {
    const notice = securityBounceNotice(bounce);
    expect(notice.subject).toBe('Portfolio Sentinel: security recipient risk@example.com suppressed by a bounce');
    expect(notice.text).toContain('getting security notices for 2 accounts');
    expect(notice.text).toContain('- 0x00000000000000000000000000000000000000a1 (Desk <A> & "B")');
    expect(notice.text).toContain('- 0x00000000000000000000000000000000000000a2\n');
    expect(notice.text).toContain('Bounce: Permanent / General');
    expect(notice.text).toContain('Status: 5.7.1');
    expect(notice.text).toContain('1. Find out why');
    expect(notice.html).toContain('Desk &lt;A&gt; &amp; &quot;B&quot;');
    expect(notice.html).toContain('&lt;b&gt;TLS&lt;/b&gt;');
    expect(notice.html).not.toContain('<b>');
    for (const body of [notice.text, notice.html]) expect(body).not.toMatch(/https?:\/\//);
  });

  it('says "1 account", and leaves out a missing status, subtype and time', () => {
    const notice = securityBounceNotice({
      ...bounce,
      accounts: bounce.accounts.slice(1),
      bounceSubType: null,
      status: null,
      bouncedAt: null,
      diagnostic: null,
    });
    expect(notice.text).toContain('for 1 account.');
    expect(notice.text).toContain('Bounce: Permanent\n');
    expect(notice.text).toContain('Diagnostic: (none given)');
    expect(notice.text).not.toContain('Status:');
    expect(notice.text).not.toContain('Bounced at:');
  });

  it('writes byte for byte the email the code before the presenter wrote, in full and with nothing optional', () => {
    const presenter = securityBouncePresenter;
    expect(plainEmailOf(presenter.email({ id: 'b', bounce, at: 1 }))).toStrictEqual(before.bounce);
    const bare = { ...bounce, accounts: bounce.accounts.slice(1), bounceSubType: null, status: null, bouncedAt: null, diagnostic: null };
    expect(plainEmailOf(presenter.email({ id: 'b', bounce: bare, at: 1 }))).toStrictEqual(before.bounceBare);
    expect(presenter.present({ id: 'b', bounce, at: 1 })).toMatchObject({ id: 'b', type: 'security.bounce', title: before.bounce.subject, links: [] });
  });
});
