import { describe, expect, it } from 'vitest';
import { parseSignerRef, signerRefSchema } from '../../../functions/domain/signerRef';

describe('parseSignerRef', () => {
  it.each([
    ['kms:1234abcd-12ab-34cd-56ef-1234567890ab', { kind: 'kms', keyId: '1234abcd-12ab-34cd-56ef-1234567890ab' }],
    ['kms:mrk-1234abcd12ab34cd56ef1234567890ab', { kind: 'kms', keyId: 'mrk-1234abcd12ab34cd56ef1234567890ab' }],
    ['kms:alias/sentinel/owner-1', { kind: 'kms', keyId: 'alias/sentinel/owner-1' }],
    [
      'kms:arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab',
      { kind: 'kms', keyId: 'arn:aws:kms:eu-central-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab' },
    ],
    ['kms:arn:aws-us-gov:kms:us-gov-west-1:111122223333:alias/owner', { kind: 'kms', keyId: 'arn:aws-us-gov:kms:us-gov-west-1:111122223333:alias/owner' }],
    ['env:OWNER_KEY_1', { kind: 'env', variable: 'OWNER_KEY_1' }],
  ])('reads %s', (ref, expected) => {
    expect(parseSignerRef(ref)).toEqual(expected);
  });

  it.each([
    'kms:',
    'kms:not-a-key',
    'kms:alias/aws/ebs',
    'kms:arn:aws:kms:eu-central-1:1111:key/x',
    'env:',
    'env:1ABC',
    'env:A-B',
    'ENV:A',
    'OWNER_KEY',
    'kms:alias/a b',
  ])('rejects %s', (ref) => {
    expect(parseSignerRef(ref)).toBeNull();
    expect(signerRefSchema.safeParse(ref).success).toBe(false);
  });

  it('trims the text form', () => {
    expect(signerRefSchema.parse(' env:KEY ')).toBe('env:KEY');
  });
});
