import { createPublicKey } from 'node:crypto';
import { GetPublicKeyCommand, SignCommand } from '@aws-sdk/client-kms';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { concatBytes } from '@noble/hashes/utils.js';
import type { Address, Hex } from 'viem';
import * as z from 'zod';
import { SignerError } from './errors';
import { addressOfPublicKey, eip191Digest, ethereumSignatureHex } from './ethereumKeys';
import type { Signer } from './ports';

/** The part of `KMSClient` the signer uses; a real `KMSClient` fits, and so does a test double. */
export interface KmsClientLike {
  send(command: GetPublicKeyCommand | SignCommand): Promise<unknown>;
}

const bytes = z.instanceof(Uint8Array, { message: 'expected bytes' });
const publicKeyOutput = z.looseObject({ PublicKey: bytes, KeySpec: z.string().optional() });
const signOutput = z.looseObject({ Signature: bytes });

const CURVE_ORDER = secp256k1.Point.Fn.ORDER;
const HALF_ORDER = CURVE_ORDER >> 1n;

async function call<T>(keyId: string, what: string, run: () => Promise<unknown>, schema: z.ZodType<T>): Promise<T> {
  let out: unknown;
  try {
    out = await run();
  } catch (cause) {
    throw new SignerError('kms-unavailable', `KMS ${what} failed for key ${keyId}`, { details: cause instanceof Error ? cause.name : 'error', cause });
  }
  const parsed = schema.safeParse(out);
  if (!parsed.success) {
    throw new SignerError('kms-bad-response', `KMS ${what} for key ${keyId} returned an unexpected response`, { cause: parsed.error });
  }
  return parsed.data;
}

/** The Ethereum address of a DER SubjectPublicKeyInfo holding a secp256k1 key. */
export function addressFromSpki(der: Uint8Array): Address {
  const key = createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp256k1') {
    throw new Error(`not a secp256k1 key (${key.asymmetricKeyType ?? '?'} ${key.asymmetricKeyDetails?.namedCurve ?? ''})`);
  }
  const jwk = key.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y) throw new Error('public key has no coordinates');
  const point = concatBytes(new Uint8Array([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url'));
  secp256k1.Point.fromBytes(point).assertValidity();
  return addressOfPublicKey(point);
}

/**
 * Turns a DER ECDSA signature over `digest` into Ethereum's `r‖s‖v`: `s` moved to the low half (EIP-2),
 * `v` chosen by recovering both candidates and keeping the one that yields `address`.
 * Throws `SignerError('kms-signature-mismatch')` if neither does (wrong key, or a signature over something else).
 */
export function derToEthereumSignature(der: Uint8Array, digest: Uint8Array, address: Address): Hex {
  let signature = secp256k1.Signature.fromBytes(der, 'der');
  if (signature.s > HALF_ORDER) signature = new secp256k1.Signature(signature.r, CURVE_ORDER - signature.s);
  for (const recovery of [0, 1]) {
    let recovered: Address;
    try {
      recovered = addressOfPublicKey(signature.addRecoveryBit(recovery).recoverPublicKey(digest).toBytes(false));
    } catch {
      continue;
    }
    if (recovered === address) return ethereumSignatureHex(signature.toBytes('compact'), recovery);
  }
  throw new SignerError('kms-signature-mismatch', `KMS signature does not recover to ${address}`, {
    details: 'the key signing is not the key whose public key was read',
  });
}

/**
 * A signer backed by an AWS KMS `ECC_SECG_P256K1` key. The address is read once (`GetPublicKey`) when the
 * signer is created; each signature is a `Sign` with `MessageType: 'DIGEST'` over the EIP-191 hash.
 */
export async function createKmsSigner(options: { kms: KmsClientLike; keyId: string }): Promise<Signer> {
  const { kms, keyId } = options;
  const info = await call(keyId, 'GetPublicKey', () => kms.send(new GetPublicKeyCommand({ KeyId: keyId })), publicKeyOutput);
  if (info.KeySpec !== undefined && info.KeySpec !== 'ECC_SECG_P256K1') {
    throw new SignerError('kms-bad-response', `KMS key ${keyId} is ${info.KeySpec}, not ECC_SECG_P256K1`);
  }
  let address: Address;
  try {
    address = addressFromSpki(info.PublicKey);
  } catch (cause) {
    throw new SignerError('kms-bad-response', `KMS key ${keyId} has no usable secp256k1 public key`, {
      details: cause instanceof Error ? cause.message : 'unreadable',
      cause,
    });
  }
  return {
    address,
    async signMessage(message) {
      const digest = eip191Digest(message);
      const out = await call(
        keyId,
        'Sign',
        () => kms.send(new SignCommand({ KeyId: keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' })),
        signOutput,
      );
      try {
        return derToEthereumSignature(out.Signature, digest, address);
      } catch (cause) {
        if (cause instanceof SignerError) throw cause;
        throw new SignerError('kms-bad-response', `KMS Sign for key ${keyId} returned an unreadable signature`, { cause });
      }
    },
  };
}
