import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignerError } from '../../functions/chain/errors';
import { createSignRevocationHandler } from '../../functions/handlers/sign-revocation';
import { InvalidRevocationRequestError } from '../../functions/services/revocation/invalidRevocationRequestError';
import { revocationLeaseId } from '../../functions/services/revocation/revocationLease';
import { revokeDelegate } from '../../functions/services/revocation/revokeDelegate';
import { lambdaContext } from '../../local/lambdaContext';
import { testTables } from '../support/testTables';
import { startRevocationWorld, type RevocationWorld } from './support/revocationWorld';

const tables = testTables();
let world: RevocationWorld;

beforeAll(async () => {
  world = await startRevocationWorld(tables);
});
afterAll(async () => {
  await world?.close();
});

async function chainState(account: string) {
  const view = await world.control.account(account);
  return { nonce: view.nonce, delegates: view.delegates.map((d) => d.address) };
}

async function notifiedFor(account: string) {
  await world.notify.drain();
  return world.notified.filter((m) => m.account === account);
}

describe('revokeDelegate against the simulator', () => {
  it('retries a stale nonce once with a fresh one', async () => {
    const account = await world.trackAccount({ label: 'stale-once', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    let bumped = false;
    world.afterNonceRead = async (address, nonce) => {
      if (address !== account.address || bumped) return;
      bumped = true;
      await world.control.setNonce(address, nonce + 1); // another transaction lands in between
    };
    try {
      const outcome = await revokeDelegate(world.signDeps, await world.consumedRequest(account.address, delegate));
      expect(outcome).toMatchObject({ kind: 'revoked', sent: true, nonce: 2 });
    } finally {
      world.afterNonceRead = null;
    }
    expect(await chainState(account.address)).toEqual({ nonce: 2, delegates: [] });
    const [audit] = await world.repos.audit.listForAccount(account.address, 5);
    expect(audit).toMatchObject({ outcome: 'revoked', nonce: 2 });
  });

  it('waits for a busy lease, and gives up (sending nothing) when it stays taken', async () => {
    const account = await world.trackAccount({ label: 'leased', delegates: ['bot-a', 'bot-b'] });
    const [a, b] = account.delegates;
    const lock = revocationLeaseId(account.address);
    const deps = { ...world.signDeps, lease: { ttlMs: 30_000, waitMs: 300, retryDelayMs: 20 } };

    await world.repos.leases.acquire(lock, 'someone-else', 30_000, Date.now());
    const busy = await revokeDelegate(deps, await world.consumedRequest(account.address, a!.address));
    expect(busy).toEqual({ kind: 'busy', sent: false });
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [a!.address, b!.address] });

    const released = new Promise<void>((resolve) => {
      setTimeout(() => void world.repos.leases.release(lock, 'someone-else').then(() => resolve()), 100);
    });
    const waited = await revokeDelegate(deps, await world.consumedRequest(account.address, a!.address));
    await released;
    expect(waited).toMatchObject({ kind: 'revoked', nonce: 1 });
    // The lease is given back: the next revocation does not wait for it to lapse.
    expect(await world.repos.leases.acquire(lock, 'probe', 1_000, Date.now())).toEqual({ kind: 'acquired' });
    await world.repos.leases.release(lock, 'probe');
  });

  it('finds out from the delegate list whether a transaction whose answer was lost landed', async () => {
    const account = await world.trackAccount({ label: 'lost-answer', delegates: ['bot-a', 'bot-b'] });
    const [a, b] = account.delegates;
    // `truncate`: executed, then the connection drops mid-answer.
    await world.control.setFaults({ routes: { transaction: { script: ['truncate'] } } });
    const landed = await revokeDelegate(world.signDeps, await world.consumedRequest(account.address, a!.address));
    expect(landed).toMatchObject({ kind: 'revoked', sent: true, nonce: 1 });
    // `error500` before the node handles it: sent, not executed, the delegate stays listed.
    await world.control.setFaults({ routes: { transaction: { script: ['error500'] } } });
    const lost = await revokeDelegate(world.signDeps, await world.consumedRequest(account.address, b!.address));
    await world.control.resetFaults();
    expect(lost).toMatchObject({ kind: 'unconfirmed', sent: true, nonce: 2, message: expect.stringMatching(/answer was lost/) });
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [b!.address] });
    const results = await notifiedFor(account.address);
    expect(results.map((m) => m.kind === 'revocation-result' && m.outcome)).toEqual(['revoked', 'unconfirmed']);
  });

  it('refuses a signer whose key is not the account\'s, and reports a missing account', async () => {
    const account = await world.trackAccount({ label: 'wrong-key', delegates: ['bot'] });
    const other = await world.control.createAccount({ label: 'other-owner', historyDays: 1 });
    const variable = Object.entries(world.signerEnv).find(([, v]) => v === account.privateKey)?.[0] ?? '';
    world.signerEnv[variable] = other.privateKey;
    const outcome = await revokeDelegate(world.signDeps, await world.consumedRequest(account.address, account.delegates[0]!.address));
    expect(outcome).toEqual({ kind: 'not-configured', sent: false, reason: `the signer's key belongs to ${other.address}, not to this account` });
    expect((await chainState(account.address)).delegates).toHaveLength(1);

    const untracked = await revokeDelegate(world.signDeps, await world.consumedRequest(other.address as `0x${string}`, account.delegates[0]!.address));
    expect(untracked).toEqual({ kind: 'not-tracked', sent: false });
    expect(await notifiedFor(account.address)).toEqual([]);
  });

  it('reports an unavailable KMS signer as nothing sent', async () => {
    const account = await world.trackAccount({ label: 'kms-down', delegates: ['bot'] });
    const deps = {
      ...world.signDeps,
      signerFor: async () => {
        throw new SignerError('kms-unavailable', 'KMS GetPublicKey failed for key alias/owner');
      },
    };
    const outcome = await revokeDelegate(deps, await world.consumedRequest(account.address, account.delegates[0]!.address));
    expect(outcome).toMatchObject({ kind: 'signer-unavailable', sent: false });
    expect(await chainState(account.address)).toMatchObject({ nonce: 0 });
  });
});

describe('sign-revocation handler', () => {
  it('takes exactly {account, delegate, tokenId}', async () => {
    const handler = createSignRevocationHandler(world.signDeps);
    const account = await world.trackAccount({ label: 'handler', delegates: ['bot'] });
    const lowercase = account.address.toLowerCase() as `0x${string}`;
    // Stored and sent in lower case: the token check compares checksummed addresses.
    const request = await world.consumedRequest(lowercase, account.delegates[0]!.address);
    for (const bad of [{ ...request, nonce: 5 }, { ...request, account: 'nope' }, { account: request.account, delegate: request.delegate }, null, 'x']) {
      await expect(handler(bad, lambdaContext('sign-revocation'))).rejects.toBeInstanceOf(InvalidRevocationRequestError);
    }
    expect((await chainState(account.address)).nonce).toBe(0);
    expect(await handler(request, lambdaContext('sign-revocation'))).toMatchObject({ kind: 'revoked', nonce: 1 });
  });
});
