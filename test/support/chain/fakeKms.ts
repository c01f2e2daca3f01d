import { generateKeyPairSync } from 'node:crypto';
import { GetPublicKeyCommand, type SignCommand } from '@aws-sdk/client-kms';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { KmsClientLike } from '../../../functions/chain/kmsSigner';

/** A real secp256k1 key pair: DER SubjectPublicKeyInfo (as KMS returns it) and the raw secret. */
export interface TestKey {
  spki: Uint8Array;
  secret: Uint8Array;
  /** `0x` + hex of the secret, for ethers. */
  privateKeyHex: string;
}

export function generateTestKey(namedCurve: 'secp256k1' | 'prime256v1' = 'secp256k1'): TestKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve });
  const d = privateKey.export({ format: 'jwk' }).d;
  if (!d) throw new Error('no private scalar');
  const secret = new Uint8Array(Buffer.from(d, 'base64url'));
  return { spki: new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })), secret, privateKeyHex: `0x${Buffer.from(secret).toString('hex')}` };
}

/**
 * A stand-in for `KMSClient`: answers `GetPublicKeyCommand` with `publicKey`'s SPKI and `SignCommand`
 * with a DER ECDSA signature by `signingKey` over the given digest. Every other signature is
 * returned in its high-s form (s > n/2), as KMS itself may do.
 */
export class FakeKms implements KmsClientLike {
  readonly digests: Uint8Array[] = [];
  publicKeyCalls = 0;
  highSReturned = 0;
  #signCalls = 0;

  constructor(
    private readonly publicKey: TestKey,
    private readonly signingKey: TestKey = publicKey,
    private readonly keySpec = 'ECC_SECG_P256K1',
  ) {}

  async send(command: GetPublicKeyCommand | SignCommand): Promise<unknown> {
    if (command instanceof GetPublicKeyCommand) {
      this.publicKeyCalls += 1;
      return { KeyId: command.input.KeyId, PublicKey: this.publicKey.spki, KeySpec: this.keySpec, KeyUsage: 'SIGN_VERIFY' };
    }
    const { Message, MessageType, SigningAlgorithm } = command.input;
    if (MessageType !== 'DIGEST' || SigningAlgorithm !== 'ECDSA_SHA_256' || !Message || Message.length !== 32) {
      throw new Error(`ValidationException: unexpected Sign input ${MessageType} ${SigningAlgorithm}`);
    }
    this.digests.push(Message);
    const low = secp256k1.Signature.fromBytes(secp256k1.sign(Message, this.signingKey.secret, { prehash: false, lowS: true }));
    this.#signCalls += 1;
    const high = this.#signCalls % 2 === 0;
    if (high) this.highSReturned += 1;
    const sig = high ? new secp256k1.Signature(low.r, secp256k1.Point.Fn.ORDER - low.s) : low;
    return { KeyId: command.input.KeyId, Signature: sig.toBytes('der'), SigningAlgorithm };
  }
}
