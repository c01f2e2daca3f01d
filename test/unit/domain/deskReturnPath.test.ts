import { describe, expect, it } from 'vitest';
import { deskReturnPath, MAX_RETURN_PATH_LENGTH } from '../../../functions/domain/deskReturnPath';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('deskReturnPath', () => {
  it('takes desk pages with plain segments and a plain query', () => {
    for (const path of [
      '/desk',
      `/desk/accounts/${ADDRESS}`,
      '/desk/alerts',
      '/desk/alerts?notice=lifted',
      `/desk/accounts/${ADDRESS}?range=30d&older=abc-_.1`,
    ]) {
      expect(deskReturnPath(path), path).toBe(path);
    }
  });

  it('refuses what a browser could resolve to another site or another path', () => {
    const refused = [
      '//evil.example/desk',
      'https://evil.example/desk',
      '/desk.evil.example',
      '/deskx',
      'desk/alerts',
      '/desk//evil.example',
      '/desk/../revoke',
      '/desk/./alerts',
      '/desk/..',
      '/desk/%2e%2e/revoke',
      '/desk/%2F%2Fevil.example',
      '/desk\\evil.example',
      '/desk/alerts#x',
      '/desk/alerts?x=<script>',
      '/desk/alerts?next=https://evil.example',
      '/desk/ accounts',
      '/desk/accounts\n/x',
      '',
    ];
    for (const path of refused) expect(deskReturnPath(path), JSON.stringify(path)).toBeNull();
    expect(deskReturnPath(null)).toBeNull();
    expect(deskReturnPath(undefined)).toBeNull();
  });

  it(`refuses a path longer than ${MAX_RETURN_PATH_LENGTH} characters`, () => {
    const long = `/desk/${'a'.repeat(MAX_RETURN_PATH_LENGTH)}`;
    expect(deskReturnPath(long)).toBeNull();
    expect(deskReturnPath(long.slice(0, MAX_RETURN_PATH_LENGTH))).toBe(long.slice(0, MAX_RETURN_PATH_LENGTH));
  });
});
