import { verifyMessage, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { SignerError } from '../../../functions/chain/errors';
import { createLocalSigner } from '../../../functions/chain/localSigner';
import { parseSignerRef, resolveSigner } from '../../../functions/chain/resolveSigner';
import { resolveKmsSigner } from '../../../functions/chain/resolveKmsSigner';
import { FakeKms, generateTestKey } from '../../support/chain/fakeKms';

async function signerError(run: () => Promise<unknown>): Promise<SignerError> {
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err instanceof SignerError) return err;
  throw new Error(`expected a SignerError, got ${String(err)}`);
}

describe('signer references', () => {
  it('parses kms: key ids, ARNs and aliases, and env: variable names', () => {
    expect(parseSignerRef('kms:alias/sentinel-owner')).toEqual({ kind: 'kms', keyId: 'alias/sentinel-owner' });
    expect(parseSignerRef('kms:arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab')).toEqual({
      kind: 'kms',
      keyId: 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab',
    });
    expect(parseSignerRef('env:OWNER_KEY')).toEqual({ kind: 'env', variable: 'OWNER_KEY' });
  });

  it.each(['', 'OWNER_KEY', 'kms:', 'env:', 'env:1KEY', 'env:A B', 'file:/tmp/key', 'kms:has space'])('refuses %j', (ref) => {
    expect(() => parseSignerRef(ref)).toThrow(SignerError);
    expect(() => parseSignerRef(ref)).toThrow(/kms:<key id.*env:<VARIABLE>/);
  });

  it('env: builds a local signer whose signatures ethers verifies', async () => {
    const wallet = Wallet.createRandom();
    const signer = await resolveSigner('env:OWNER_KEY', { env: { OWNER_KEY: wallet.privateKey } });
    expect(signer.address).toBe(wallet.address);
    const message = new TextEncoder().encode('hello');
    expect(verifyMessage(message, await signer.signMessage(message))).toBe(wallet.address);
  });

  it('env: accepts a key without 0x and with surrounding whitespace', async () => {
    const wallet = Wallet.createRandom();
    const signer = await resolveSigner('env:K', { env: { K: ` ${wallet.privateKey.slice(2)}\n` } });
    expect(signer.address).toBe(wallet.address);
  });

  it('env: errors name the variable and never print its value', async () => {
    const missing = await signerError(() => resolveSigner('env:NOPE', { env: {} }));
    expect(missing.code).toBe('missing-key');
    expect(missing.message).toContain('NOPE');

    const secretish = 'ab'.repeat(31) + 'zz';
    const bad = await signerError(() => resolveSigner('env:K', { env: { K: secretish } }));
    expect(bad.code).toBe('invalid-key');
    expect(bad.message).toContain('K');
    expect(JSON.stringify({ m: bad.message, s: bad.stack, c: String(bad.cause) })).not.toContain(secretish);

    const outOfRange = `0x${'ff'.repeat(32)}`;
    const big = await signerError(() => resolveSigner('env:K', { env: { K: outOfRange } }));
    expect(big.code).toBe('invalid-key');
    expect(big.message).not.toContain('ff'.repeat(8));
    expect(() => createLocalSigner(outOfRange)).toThrow(SignerError);
  });

  it('kms: uses the given client, and says so when there is none', async () => {
    const key = generateTestKey();
    const signer = await resolveSigner('kms:alias/owner', { kms: new FakeKms(key) });
    expect(signer.address).toBe(new Wallet(key.privateKeyHex).address);
    const none = await signerError(() => resolveSigner('kms:alias/owner', { env: {} }));
    expect(none.code).toBe('kms-unavailable');
  });
});

describe('resolveKmsSigner (the deployed sign-revocation)', () => {
  it('resolves kms: references and refuses env: ones, which are for local use only', async () => {
    const key = generateTestKey();
    const signer = await resolveKmsSigner('kms:alias/owner', new FakeKms(key));
    expect(signer.address).toBe(new Wallet(key.privateKeyHex).address);
    const signature = await signer.signMessage(new TextEncoder().encode('hello'));
    expect(verifyMessage('hello', signature)).toBe(signer.address);
    const local = await signerError(() => resolveKmsSigner('env:OWNER_KEY', new FakeKms(key)));
    expect(local.code).toBe('bad-reference');
    expect(local.message).toMatch(/local use only/);
  });
});
