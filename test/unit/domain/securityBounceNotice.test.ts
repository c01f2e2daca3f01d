import { describe, expect, it } from 'vitest';
import { plainDiagnostic, securityBounceNotice, type SecurityBounce } from '../../../functions/domain/securityBounceNotice';

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

describe('plainDiagnostic', () => {
  it('keeps one plain line: links replaced, control characters and runs of spaces collapsed', () => {
    expect(plainDiagnostic('550 5.1.1 see https://help.example.net/x?t=abc\r\n\tand www.example.org/y, or ftp://h/z')).toBe(
      '550 5.1.1 see [link removed] and [link removed] or [link removed]',
    );
    expect(plainDiagnostic('a\u0000b\u0085c')).toBe('a b c');
  });

  it('cuts a long reply at 300 characters and reads nothing as null', () => {
    const long = plainDiagnostic('x'.repeat(1_000));
    expect(long).toHaveLength(300);
    expect(long?.endsWith('…')).toBe(true);
    for (const none of [null, undefined, '', ' \r\n ']) expect(plainDiagnostic(none)).toBeNull();
  });
});

describe('securityBounceNotice', () => {
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
});
