import { computeAddress, hashMessage, Signature, verifyMessage, Wallet } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignerError } from '../../../functions/chain/errors';
import { createKmsSigner } from '../../../functions/chain/kmsSigner';
import { signTransaction } from '../../../functions/chain/signTransaction';
import { buildRemoveDelegateManager } from '../../../functions/chain/transactionBuilders';
import { FakeKms, generateTestKey } from '../../support/chain/fakeKms';

const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

describe('KMS signer', () => {
  it('derives the address from the DER public key, as ethers does from the private key', async () => {
    const key = generateTestKey();
    const kms = new FakeKms(key);
    const signer = await createKmsSigner({ kms, keyId: 'alias/owner' });
    expect(signer.address).toBe(new Wallet(key.privateKeyHex).address);
    expect(signer.address).toBe(computeAddress(new Wallet(key.privateKeyHex).signingKey.publicKey));
  });

  it('produces low-s EIP-191 signatures that ethers verifies, over 200 random messages, half of them high-s from KMS', async () => {
    const key = generateTestKey();
    const kms = new FakeKms(key);
    const signer = await createKmsSigner({ kms, keyId: 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab' });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (message) => {
        const signature = await signer.signMessage(message);
        expect(verifyMessage(message, signature)).toBe(signer.address);
        const parsed = Signature.from(signature);
        expect(BigInt(parsed.s) <= HALF_ORDER).toBe(true);
        expect([27, 28]).toContain(parsed.v);
        expect(Buffer.from(kms.digests.at(-1) ?? []).toString('hex')).toBe(hashMessage(message).slice(2));
      }),
      { numRuns: 200 },
    );
    expect(kms.digests.length).toBeGreaterThanOrEqual(200);
    expect(kms.highSReturned).toBeGreaterThanOrEqual(100);
    expect(kms.publicKeyCalls).toBe(1);
  });

  it('signs transactions the node accepts: ethers recovers the sender from the canonical bytes', async () => {
    const kms = new FakeKms(generateTestKey());
    const signer = await createKmsSigner({ kms, keyId: 'alias/owner' });
    const data = buildRemoveDelegateManager({ sender: signer.address, nonce: 12, manager: Wallet.createRandom().address });
    const tx = await signTransaction(signer, data);
    const bytes = Buffer.from(JSON.stringify({ sender: tx.data.sender, instruction: tx.data.instruction, nonce: tx.data.nonce }), 'utf8');
    expect(verifyMessage(bytes, tx.signature)).toBe(signer.address);
  });

  it('fails loudly when the signing key is not the key it reported', async () => {
    const kms = new FakeKms(generateTestKey(), generateTestKey());
    const signer = await createKmsSigner({ kms, keyId: 'alias/owner' });
    for (let i = 0; i < 4; i += 1) {
      const err = await signer.signMessage(new TextEncoder().encode(`message ${i}`)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SignerError);
      expect((err as SignerError).code).toBe('kms-signature-mismatch');
      expect((err as SignerError).message).toContain(signer.address);
    }
  });

  it('refuses a key that is not secp256k1', async () => {
    const p256 = new FakeKms(generateTestKey('prime256v1'), undefined, 'ECC_NIST_P256');
    await expect(createKmsSigner({ kms: p256, keyId: 'k' })).rejects.toMatchObject({ code: 'kms-bad-response' });
    const mislabelled = new FakeKms(generateTestKey('prime256v1'));
    await expect(createKmsSigner({ kms: mislabelled, keyId: 'k' })).rejects.toMatchObject({ code: 'kms-bad-response' });
  });

  it('wraps KMS failures and malformed answers in SignerError', async () => {
    const failing = { send: async () => Promise.reject(Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException' })) };
    const err = await createKmsSigner({ kms: failing, keyId: 'alias/owner' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'SignerError', code: 'kms-unavailable' });
    expect((err as Error).message).toContain('AccessDeniedException');
    expect((err as Error).cause).toBeInstanceOf(Error);

    const noKey = { send: async () => ({ KeySpec: 'ECC_SECG_P256K1' }) };
    await expect(createKmsSigner({ kms: noKey, keyId: 'k' })).rejects.toMatchObject({ code: 'kms-bad-response' });

    const key = generateTestKey();
    const garbage = {
      send: async (command: unknown) =>
        (command as { input: { MessageType?: string } }).input.MessageType ? { Signature: new Uint8Array([1, 2, 3]) } : { PublicKey: key.spki },
    };
    const signer = await createKmsSigner({ kms: garbage, keyId: 'k' });
    await expect(signer.signMessage(new Uint8Array([1]))).rejects.toMatchObject({ code: 'kms-bad-response' });
  });
});
