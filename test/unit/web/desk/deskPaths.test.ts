import { describe, expect, it } from 'vitest';
import { signInReturn } from '../../../../functions/web/desk/deskPaths';

describe('signInReturn', () => {
  it('returns to a desk page, not to the overview, the sign-in or sign-out pages, the assets or the API', () => {
    expect(signInReturn('/desk/accounts/0x52908400098527886E0F7030069857D2E4169EE7')).toBe('/desk/accounts/0x52908400098527886E0F7030069857D2E4169EE7');
    expect(signInReturn('/desk/channels?notice=tested')).toBe('/desk/channels?notice=tested');
    for (const path of [
      '/desk',
      '/desk?x=1',
      '/desk/sign-in',
      '/desk/sign-in?token=v2.x',
      '/desk/sign-out',
      '/desk/assets/passkeys.js',
      '/desk/api/accounts',
      '/desk/api',
    ]) {
      expect(signInReturn(path), path).toBeNull();
    }
    expect(signInReturn('//evil.example')).toBeNull();
    expect(signInReturn(null)).toBeNull();
  });
});
