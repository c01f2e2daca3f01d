import type { CsrfTokens } from '../csrfToken';

/** The account page's paged sections: each has its own "Older" cursor. */
export type CursorSection = 'alerts' | 'deliveries' | 'decisions';

/** What signs and checks cursors: the pages' keyed HMAC (`CsrfTokens`), under an action of its own. */
export type CursorMac = Pick<CsrfTokens, 'issue' | 'verify'>;

/** A cursor read back: the position it carries, or why it is refused (changed, or another account's or section's). */
export type CursorRead = { kind: 'none' } | { kind: 'position'; position: string } | { kind: 'invalid' };

const CURSOR = /^([A-Za-z0-9_-]{1,1400})\.([A-Za-z0-9_-]{43})$/;

function action(section: CursorSection): string {
  return `desk-cursor:${section}`;
}

function bound(account: string, position: string): string {
  return `${account.toLowerCase()}\n${position}`;
}

/**
 * An opaque "Older" cursor of `section` of `account`'s page: the position, and an HMAC binding it
 * to the account and the section, so a changed cursor, or one taken from another account or
 * section, is refused rather than read.
 */
export function encodeCursor(mac: CursorMac, section: CursorSection, account: string, position: string): string {
  return `${Buffer.from(position, 'utf8').toString('base64url')}.${mac.issue(action(section), bound(account, position))}`;
}

/** Reads a cursor of `section` of `account` (`null`: none given). Never throws. */
export function decodeCursor(mac: CursorMac, section: CursorSection, account: string, value: string | null): CursorRead {
  if (value === null) return { kind: 'none' };
  const match = CURSOR.exec(value);
  if (!match) return { kind: 'invalid' };
  const position = Buffer.from(match[1] ?? '', 'base64url').toString('utf8');
  return mac.verify(action(section), bound(account, position), match[2]) ? { kind: 'position', position } : { kind: 'invalid' };
}
