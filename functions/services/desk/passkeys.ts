import { createHash, randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { normalEmail } from '../../domain/deskScope';
import type { DeskChallengeRepository } from '../../store/deskChallengeRepository';
import type { DeskRecipientRepository } from '../../store/deskRecipientRepository';
import type { Passkey, PasskeyRepository } from '../../store/passkeyRepository';

/** How long a passkey ceremony may take, from its options to its answer. */
export const PASSKEY_CEREMONY_MS = 5 * 60_000;

/** Who the passkeys are for: the desk's own origin and its host name (a passkey works only there). */
export interface PasskeyRelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name: string;
}

/**
 * The relying party of a desk served at `publicBaseUrl`, or `null` where browsers offer no passkey:
 * a host that is an IP address (`127.0.0.1`: WebAuthn takes domain names only; locally use
 * `http://localhost:<port>`).
 */
export function relyingPartyOf(publicBaseUrl: string): PasskeyRelyingParty | null {
  const url = new URL(publicBaseUrl);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(url.hostname) || url.hostname.startsWith('[')) return null;
  return { id: url.hostname, origin: url.origin, name: 'Portfolio Sentinel' };
}

/** What the passkey ceremonies read and write: challenges, passkeys, the recipients' lists of them. */
export interface PasskeyDeps {
  readonly rp: PasskeyRelyingParty;
  readonly challenges: Pick<DeskChallengeRepository, 'put' | 'take'>;
  readonly passkeys: Pick<PasskeyRepository, 'register' | 'get' | 'getMany' | 'recordUse' | 'remove'>;
  readonly recipients: Pick<DeskRecipientRepository, 'get'>;
  readonly now: () => number;
}

/** The WebAuthn user handle of a recipient: stable, opaque (no address in it). */
function userHandle(email: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    createHash('sha256')
      .update(`portfolio-sentinel:desk-user:${normalEmail(email)}`)
      .digest()
      .subarray(0, 16),
  );
}

const newChallengeId = () => randomBytes(18).toString('base64url');

/** The registration options for a new passkey of `email` (its passkeys excluded), and the id of the challenge to answer. */
export async function registrationOptions(deps: PasskeyDeps, email: string): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const existing = await deps.passkeys.getMany((await deps.recipients.get(email)).passkeys);
  const options = await generateRegistrationOptions({
    rpName: deps.rp.name,
    rpID: deps.rp.id,
    userName: normalEmail(email),
    userID: userHandle(email),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: [...p.transports] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: PASSKEY_CEREMONY_MS,
  });
  const challengeId = newChallengeId();
  await deps.challenges.put(challengeId, {
    purpose: 'register',
    challenge: options.challenge,
    email: normalEmail(email),
    expiresAt: deps.now() + PASSKEY_CEREMONY_MS,
  });
  return { challengeId, options };
}

const NOT_VERIFIED = 'the passkey could not be verified';

/** What both ceremonies hold the browser's answer to: the challenge given, this desk's origin and host, the user verified. */
function expectations(deps: PasskeyDeps, challenge: string) {
  return { expectedChallenge: challenge, expectedOrigin: deps.rp.origin, expectedRPID: deps.rp.id, requireUserVerification: true };
}

/** The result of a `@simplewebauthn/server` check that verified, or `null` where it did not or threw (a malformed or foreign answer). */
async function verifiedAnswer<R extends { verified: boolean }>(check: () => Promise<R>): Promise<(R & { verified: true }) | null> {
  try {
    const result = await check();
    return result.verified ? (result as R & { verified: true }) : null;
  } catch {
    return null;
  }
}

/** How a registration ended. */
export type RegistrationOutcome = { kind: 'registered'; passkey: Passkey } | { kind: 'refused'; reason: string };

/**
 * Checks the browser's answer to a registration challenge (once: the challenge is used up either
 * way) for `email`, and stores the passkey under `name`. The signature and the origin, the host
 * and user verification are checked by `@simplewebauthn/server`.
 */
export async function verifyRegistration(
  deps: PasskeyDeps,
  email: string,
  answer: { challengeId: string; response: RegistrationResponseJSON; name: string },
): Promise<RegistrationOutcome> {
  const challenge = await deps.challenges.take(answer.challengeId);
  if (!challenge || challenge.purpose !== 'register' || challenge.email !== normalEmail(email))
    return { kind: 'refused', reason: 'the registration expired; try again' };
  const verified = await verifiedAnswer(() => verifyRegistrationResponse({ response: answer.response, ...expectations(deps, challenge.challenge) }));
  if (!verified) return { kind: 'refused', reason: NOT_VERIFIED };
  const { credential } = verified.registrationInfo;
  const passkey: Passkey = {
    id: credential.id,
    email: normalEmail(email),
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
    name: answer.name.trim().slice(0, 60) || 'Passkey',
    createdAt: deps.now(),
    lastUsedAt: null,
  };
  const stored = await deps.passkeys.register(passkey);
  return stored.kind === 'registered' ? { kind: 'registered', passkey } : { kind: 'refused', reason: 'this passkey is registered already' };
}

/** Options to sign in with any passkey of this desk (a discoverable credential: no address asked), and the challenge's id. */
export async function authenticationOptions(deps: PasskeyDeps): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const options = await generateAuthenticationOptions({ rpID: deps.rp.id, userVerification: 'required', timeout: PASSKEY_CEREMONY_MS });
  const challengeId = newChallengeId();
  await deps.challenges.put(challengeId, { purpose: 'authenticate', challenge: options.challenge, expiresAt: deps.now() + PASSKEY_CEREMONY_MS });
  return { challengeId, options };
}

/** How a passkey sign-in ended: whose passkey signed, or why not (in words a page may show). */
export type AuthenticationOutcome = { kind: 'signed'; email: string } | { kind: 'refused'; reason: string };

/**
 * Checks the browser's answer to a sign-in challenge (used up either way): a registered passkey,
 * its signature over the challenge for this origin and host with the user verified, its counter
 * moving forward (a cloned authenticator is refused), recorded once.
 */
export async function verifyAuthentication(
  deps: PasskeyDeps,
  answer: { challengeId: string; response: AuthenticationResponseJSON },
): Promise<AuthenticationOutcome> {
  const challenge = await deps.challenges.take(answer.challengeId);
  if (!challenge || challenge.purpose !== 'authenticate') return { kind: 'refused', reason: 'the sign-in expired; try again' };
  const passkey = await deps.passkeys.get(answer.response.id);
  if (!passkey) return { kind: 'refused', reason: 'this passkey is not registered here' };
  const credential = {
    id: passkey.id,
    publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
    counter: passkey.counter,
    transports: [...passkey.transports],
  };
  const verified = await verifiedAnswer(() =>
    verifyAuthenticationResponse({ response: answer.response, credential, ...expectations(deps, challenge.challenge) }),
  );
  if (!verified) return { kind: 'refused', reason: NOT_VERIFIED };
  const used = await deps.passkeys.recordUse(passkey.id, passkey.counter, verified.authenticationInfo.newCounter, deps.now());
  if (used.kind === 'replayed') return { kind: 'refused', reason: 'the passkey was used at the same moment elsewhere; try again' };
  return { kind: 'signed', email: passkey.email };
}

/** The passkeys of `email`, oldest first. */
export async function passkeysOf(deps: Pick<PasskeyDeps, 'passkeys' | 'recipients'>, email: string): Promise<Passkey[]> {
  return deps.passkeys.getMany((await deps.recipients.get(email)).passkeys);
}
