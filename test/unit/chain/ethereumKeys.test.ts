import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Signature, Wallet, hashMessage, verifyMessage } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressOfPublicKey, addressOfSecretKey, eip191Digest, signDigest } from '../../../functions/chain/ethereumKeys';

const HALF_ORDER = secp256k1.Point.Fn.ORDER >> 1n;
const secretKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k));

describe('Ethereum keys and signatures (checked with ethers)', () => {
  it('derives the address ethers derives from the same secret key', () => {
    fc.assert(
      fc.property(secretKey, (key) => {
        expect(addressOfSecretKey(key)).toBe(new Wallet(Buffer.from(key).toString('hex')).address);
      }),
      { numRuns: 50 },
    );
  });

  it('hashes messages as EIP-191 and signs low-s signatures that ethers recovers to the signer', () => {
    fc.assert(
      fc.property(secretKey, fc.uint8Array({ maxLength: 300 }), (key, message) => {
        const digest = eip191Digest(message);
        expect(`0x${Buffer.from(digest).toString('hex')}`).toBe(hashMessage(message));
        const signature = signDigest(key, digest);
        expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
        expect(verifyMessage(message, signature)).toBe(addressOfSecretKey(key));
        expect(BigInt(Signature.from(signature).s)).toBeLessThanOrEqual(HALF_ORDER);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a public key that is not uncompressed secp256k1', () => {
    const key = secp256k1.utils.randomSecretKey();
    expect(() => addressOfPublicKey(secp256k1.getPublicKey(key, true))).toThrow(/uncompressed/);
    expect(addressOfPublicKey(secp256k1.getPublicKey(key, false))).toBe(addressOfSecretKey(key));
  });
});
