import { describe, expect, it } from 'vitest';
import { publicKeysToPublish, type KeySecretReader, type KeyStage } from '../../../cli/linkKeysPublisher';
import { LINK_PURPOSES, type LinkPurpose } from '../../../functions/domain/linkClaims';
import { deriveLinkKeyPair, linkPublicKeysSchema, publicKeysOf } from '../../../functions/links/linkKeyPair';
import { LinkTokenSigner } from '../../../functions/links/linkTokenSigner';
import { LinkTokenVerifier } from '../../../functions/links/linkTokenVerifier';

const secretOf = (purpose: LinkPurpose, generation: number): string => `${purpose}-generation-${generation}-0123456789abcdefghijklmnop`;

/** The key secrets of a stage as Secrets Manager stages them, in memory: generation per stage. */
function stagedSecrets(stages: Partial<Record<KeyStage, number>>): KeySecretReader {
  return (purpose, stage) => Promise.resolve(stages[stage] === undefined ? undefined : secretOf(purpose, stages[stage]));
}

const tokenOf = (purpose: LinkPurpose, generation: number): string =>
  new LinkTokenSigner([deriveLinkKeyPair(purpose, secretOf(purpose, generation)).signing]).sign(purpose, { n: generation });

describe('link publish-keys: what the pages are given', () => {
  it('publishes public keys only, for every purpose, that verify what the current private keys sign', async () => {
    const record = await publicKeysToPublish(stagedSecrets({ AWSCURRENT: 1 }), false);
    const text = JSON.stringify(record);
    for (const purpose of LINK_PURPOSES) expect(text).not.toContain(secretOf(purpose, 1));
    const verifier = new LinkTokenVerifier(publicKeysOf(linkPublicKeysSchema.parse(JSON.parse(text)), LINK_PURPOSES));
    for (const purpose of LINK_PURPOSES) expect(verifier.verify(purpose, tokenOf(purpose, 1)).kind, purpose).toBe('valid');
  });

  it('during a rotation publishes the staged next key before anything signs with it, and keeps the previous until retired', async () => {
    const during = new LinkTokenVerifier(
      publicKeysOf(await publicKeysToPublish(stagedSecrets({ AWSPENDING: 3, AWSCURRENT: 2, AWSPREVIOUS: 1 }), false), ['revoke']),
    );
    for (const generation of [1, 2, 3]) expect(during.verify('revoke', tokenOf('revoke', generation)).kind, `generation ${generation}`).toBe('valid');
    const retired = new LinkTokenVerifier(publicKeysOf(await publicKeysToPublish(stagedSecrets({ AWSCURRENT: 3, AWSPREVIOUS: 2 }), true), ['revoke']));
    expect(retired.verify('revoke', tokenOf('revoke', 2))).toEqual({ kind: 'invalid', reason: 'bad-signature' });
    expect(retired.verify('revoke', tokenOf('revoke', 3)).kind).toBe('valid');
  });

  it('refuses to publish when a purpose has no key secret version', async () => {
    await expect(publicKeysToPublish(stagedSecrets({ AWSPREVIOUS: 1 }), true)).rejects.toThrow(/the revoke key secret has no version to publish/);
  });
});
