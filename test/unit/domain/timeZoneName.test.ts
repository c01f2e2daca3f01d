import { describe, expect, it } from 'vitest';
import { readTimeZoneName } from '../../../functions/domain/timeZoneName';

describe('readTimeZoneName', () => {
  it('keeps the current IANA name as typed, fixing only its case', () => {
    for (const [typed, stored] of [
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['asia/kolkata', 'Asia/Kolkata'],
      ['Asia/Kathmandu', 'Asia/Kathmandu'],
      ['Europe/Kyiv', 'Europe/Kyiv'],
      ['europe/berlin', 'Europe/Berlin'],
      ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
      ['Etc/GMT+5', 'Etc/GMT+5'],
    ]) {
      expect(readTimeZoneName(typed!), typed).toEqual({ kind: 'zone', name: stored });
    }
  });

  it('maps legacy links outside the regions and the names of UTC', () => {
    expect(readTimeZoneName('US/Eastern')).toEqual({ kind: 'zone', name: 'America/New_York' });
    expect(readTimeZoneName('Japan')).toEqual({ kind: 'zone', name: 'Asia/Tokyo' });
    for (const utc of ['UTC', 'utc', 'GMT', 'Zulu']) expect(readTimeZoneName(utc)).toEqual({ kind: 'zone', name: 'UTC' });
  });

  it('refuses abbreviations with a hint, and unknown names', () => {
    for (const abbreviation of ['EST', 'est', 'CET', 'MST', 'EST5EDT', 'PST8PDT']) {
      const read = readTimeZoneName(abbreviation);
      expect(read.kind, abbreviation).toBe('invalid');
      expect(read.kind === 'invalid' && read.reason).toMatch(/use an IANA zone such as America\/New_York/);
    }
    expect(readTimeZoneName('Mars/Olympus')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/not an IANA time zone/) as unknown });
  });
});
