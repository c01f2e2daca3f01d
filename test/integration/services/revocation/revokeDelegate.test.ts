import { describe, expect, it } from 'vitest';
import { SignerError } from '../../../../functions/chain/errors';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import { InvalidRevocationRequestError } from '../../../../functions/services/revocation/invalidRevocationRequestError';
import { revocationLeaseId } from '../../../../functions/services/revocation/revocationLease';
import { revokeDelegate } from '../../../../functions/services/revocation/revokeDelegate';
import { lambdaContext } from '../../../../local/lambdaContext';
import { createChainClient } from '../../../../functions/chain/chainClient';
import { linkReusableAfter } from '../../../../functions/domain/revocationOutcome';
import { auditTrail } from '../../../../functions/store/auditTrail';
import { accountStatus } from '../../../../functions/services/status/accountStatus';
import { renderRevocationView } from '../../../../functions/web/revocationViews';
import { revocationWorld } from '../../../support/revocation/revocationWorld';

const world = revocationWorld();

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
    // Both signed transactions are in the audit trail, each intent paired with its outcome.
    const records = await world.repos.audit.listForAccount(account.address, 10);
    expect(records.map((r) => `${r.kind}:${r.nonce}:${r.outcome}`)).toEqual([
      'outcome:2:revoked',
      'intent:2:submitting',
      'outcome:1:rejected',
      'intent:1:submitting',
    ]);
    const trail = auditTrail(records);
    expect(trail).toHaveLength(2);
    for (const entry of trail) {
      if (entry.kind !== 'transaction') throw new Error(`unexpected ${entry.kind}`);
      expect(entry.outcome?.txHash).toBe(entry.intent.txHash);
      expect(entry.intent).toMatchObject({
        address: account.address,
        delegate,
        tokenId: expect.any(String),
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect(entry.outcome?.at).toBeGreaterThanOrEqual(entry.intent.at);
    }
    expect(new Set(trail.map((e) => e.kind === 'transaction' && e.intent.txHash)).size).toBe(2);
  });

  it('submits nothing when the intent cannot be audited, and says so (the link stays reusable)', async () => {
    const account = await world.trackAccount({ label: 'audit-down', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const audit = world.repos.audit;
    const deps = {
      ...world.signDeps,
      audit: {
        append: (r: Parameters<typeof audit.append>[0]) => audit.append(r),
        appendOutcome: (i: Parameters<typeof audit.appendOutcome>[0], o: Parameters<typeof audit.appendOutcome>[1]) => audit.appendOutcome(i, o),
        appendIntent: async () => {
          throw new Error('audit table unavailable');
        },
      },
    };
    const outcome = await revokeDelegate(deps, await world.consumedRequest(account.address, delegate));
    expect(outcome).toEqual({ kind: 'audit-unavailable', sent: false });
    expect(linkReusableAfter(outcome)).toBe(true);
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [delegate] });
    expect(await notifiedFor(account.address)).toEqual([]);
  });

  it('leaves the intent in the audit trail when the function stops after submitting', async () => {
    const account = await world.trackAccount({ label: 'stops-after-submit', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const request = await world.consumedRequest(account.address, delegate);
    // The transaction reaches the chain, then the invocation never hears back (a Lambda timeout).
    const deps = {
      ...world.signDeps,
      chain: {
        ...world.chain,
        submitTransaction: async (tx: Parameters<typeof world.chain.submitTransaction>[0]) => {
          await world.chain.submitTransaction(tx);
          return new Promise<never>(() => {});
        },
      },
    };
    void revokeDelegate(deps, request);
    for (let i = 0; i < 100 && (await chainState(account.address)).nonce === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [] });
    const records = await world.repos.audit.listForAccount(account.address, 10);
    expect(records).toEqual([
      expect.objectContaining({ kind: 'intent', nonce: 1, delegate, tokenId: request.tokenId, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }),
    ]);
    expect(auditTrail(records)).toEqual([expect.objectContaining({ kind: 'transaction', outcome: null })]);
    const status = await accountStatus(world.repos, account.address, Date.now());
    expect(status?.revocations).toEqual([expect.objectContaining({ delegate, outcome: 'no outcome recorded', nonce: 1, txHash: records[0]?.txHash })]);
  });

  it("keeps the node URL (and an API key in its path) off the owner's page and email when the answer is lost; the audit has it redacted", async () => {
    const account = await world.trackAccount({ label: 'keyed-node', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const apiKey = '9aa3d95b3bc440fa88ea12eaa4456161';
    // A node URL with a key in its path; the simulator answers 404 there, after the request was sent.
    const keyed = createChainClient({
      nodeUrl: `${world.sim.nodeUrl}/${apiKey}`,
      indexerUrl: world.sim.indexerUrl,
      rps: 1_000,
      timeoutMs: 2_000,
      maxRetries: 0,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 20,
    });
    const deps = {
      ...world.signDeps,
      chain: { ...world.chain, submitTransaction: (tx: Parameters<typeof keyed.submitTransaction>[0]) => keyed.submitTransaction(tx) },
    };
    const outcome = await revokeDelegate(deps, await world.consumedRequest(account.address, delegate));
    expect(outcome).toMatchObject({ kind: 'unconfirmed', sent: true, message: "the chain's answer was lost, so it is not known whether it was executed" });
    const host = new URL(world.sim.nodeUrl).host;
    const page = renderRevocationView(
      {
        kind: 'unconfirmed',
        subject: {
          account: { address: account.address, label: null, timezone: 'UTC', hasSigner: true },
          delegate: { address: delegate, name: null, expiryMs: null, isWebClient: false, known: false },
          linkExpiresAt: 0,
        },
        message: outcome.kind === 'unconfirmed' ? outcome.message : '',
        transactionSignature: '0x00',
      },
      'https://links.example/revoke',
    ).html;
    const [email] = await notifiedFor(account.address);
    for (const publicText of [JSON.stringify(outcome), page, JSON.stringify(email)]) {
      expect(publicText).not.toContain(apiKey);
      expect(publicText).not.toContain(host);
      expect(publicText).not.toMatch(/POST|HTTP 404/);
    }
    const outcomeRecord = (await world.repos.audit.listForAccount(account.address, 10)).find((r) => r.kind === 'outcome');
    expect(outcomeRecord?.detail).toContain(`${host}/redacted/transaction`);
    expect(outcomeRecord?.detail).toMatch(/HTTP 404/);
    expect(JSON.stringify(outcomeRecord)).not.toContain(apiKey);
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

  it("refuses a signer whose key is not the account's, and reports a missing account", async () => {
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
