import { describe, expect, it } from 'vitest';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import { lambdaContext } from '../../../../local/lambdaContext';
import { revocationLeaseId } from '../../../../functions/services/revocation/revocationLease';
import { MAX_CONSUMED_TOKEN_AGE_MS } from '../../../../functions/services/revocation/revocationAuthorization';
import { formOf, getPage, HOUR, LINK_SECRET, revocationWorld, submitForm, titleOf } from '../../../support/revocation/revocationWorld';
import { issueClaims } from '../../../../functions/domain/linkClaims';
import { LinkTokenCodec } from '../../../../functions/links/linkToken';

const world = revocationWorld();

const invoke = (request: unknown) => createSignRevocationHandler(world.signDeps)(request, lambdaContext('sign-revocation'));

async function chainState(account: string) {
  const view = await world.control.account(account);
  return { nonce: view.nonce, delegates: view.delegates.map((d) => d.address) };
}

async function resultEmailsFor(account: string) {
  await world.notify.drain();
  return world.notified.filter((m) => m.account === account && m.kind === 'revocation-result');
}

describe('sign-revocation checks the consumed link token', () => {
  it('refuses a direct invocation with a made-up token id: nothing sent, delegate still listed, refusal audited', async () => {
    const account = await world.trackAccount({ label: 'made-up', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const tokenId = 'made-up-token-id-0000000001';
    // Even with a genuine signed link naming that id: nothing was consumed for it.
    const token = new LinkTokenCodec(LINK_SECRET).sign('revoke', issueClaims({ purpose: 'revoke', account: account.address, delegate }, tokenId, Date.now()));

    expect(await invoke({ account: account.address, delegate, tokenId, token })).toEqual({ kind: 'not-authorized', sent: false });
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [delegate] });
    const audit = await world.repos.audit.listForAccount(account.address, 5);
    expect(audit).toEqual([
      expect.objectContaining({ action: 'revoke-delegate', outcome: 'not-authorized', delegate, message: 'no consumed revocation link has this token id' }),
    ]);
    expect(audit[0]?.nonce).toBeUndefined();
    expect(await resultEmailsFor(account.address)).toEqual([]);
  });

  it('refuses a token consumed for another delegate, another account, another purpose, or expired', async () => {
    const account = await world.trackAccount({ label: 'mismatch', delegates: ['bot-a', 'bot-b'] });
    const other = await world.trackAccount({ label: 'mismatch-other', delegates: ['bot-c'] });
    const [a, b] = account.delegates;
    const cases = [
      { stored: { delegate: b!.address }, reason: 'the link was for another delegate' },
      { stored: { account: other.address }, reason: 'the link was for another account' },
      // A token consumed for snooze lives under another key (`snooze#…`): the signer never sees it.
      { stored: { purpose: 'snooze' as const }, reason: 'no consumed revocation link has this token id' },
      { stored: { expiresAt: Date.now() - HOUR }, reason: 'no consumed revocation link has this token id' },
    ];
    for (const { stored, reason } of cases) {
      const request = await world.consumedRequest(account.address, a!.address, stored);
      expect(await invoke(request), reason).toEqual({ kind: 'not-authorized', sent: false });
      const [audit] = await world.repos.audit.listForAccount(account.address, 1);
      expect(audit).toMatchObject({ id: request.tokenId, outcome: 'not-authorized', message: reason });
    }
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [a!.address, b!.address] });
    expect(await chainState(other.address)).toEqual({ nonce: 0, delegates: [other.delegates[0]!.address] });
  });

  it('lets one consumed token sign once: a second signing with it is refused', async () => {
    const account = await world.trackAccount({ label: 'twice', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const lock = revocationLeaseId(account.address);
    const deps = { ...world.signDeps, lease: { ttlMs: 30_000, waitMs: 50, retryDelayMs: 10 } };
    const request = await world.consumedRequest(account.address, delegate);

    // The first signing sends nothing (the lease is taken); the token stays consumed, nobody released it.
    await world.repos.leases.acquire(lock, 'someone-else', 30_000, Date.now());
    expect(await createSignRevocationHandler(deps)(request, lambdaContext('sign-revocation'))).toEqual({ kind: 'busy', sent: false });
    await world.repos.leases.release(lock, 'someone-else');

    expect(await invoke(request)).toEqual({ kind: 'not-authorized', sent: false });
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [delegate] });
    const [audit] = await world.repos.audit.listForAccount(account.address, 1);
    expect(audit).toMatchObject({ outcome: 'not-authorized', message: 'the link was already used for a signing' });
  });

  it('lets exactly one of two concurrent signings with the same token through', async () => {
    const account = await world.trackAccount({ label: 'racing', delegates: ['bot'] });
    const request = await world.consumedRequest(account.address, account.delegates[0]!.address);
    const outcomes = await Promise.all([invoke(request), invoke(request)]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['not-authorized', 'revoked']);
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [] });
  });

  it('still revokes through the page, and the request it sent cannot be replayed', async () => {
    const account = await world.trackAccount({ label: 'page-flow', delegates: ['bot-a', 'bot-b'] });
    const [a, b] = account.delegates;
    const form = formOf(await getPage(world.revokeLink(account.address, a!.address)));
    const done = await submitForm(form.action, form.fields);
    expect(titleOf(done)).toBe('API key revoked');
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [b!.address] });

    const [consumed] = await world.repos.audit.listForAccount(account.address, 1);
    const tokenId = consumed?.tokenId ?? '';
    expect(await world.repos.tokens.get(tokenId, 'revoke')).toMatchObject({
      purpose: 'revoke',
      account: account.address,
      delegate: a!.address,
      signedAt: expect.any(Number),
    });
    // Replaying the page's request, even re-aimed at another delegate, signs nothing.
    const token = form.fields['token'];
    expect(await invoke({ account: account.address, delegate: a!.address, tokenId, token })).toEqual({ kind: 'not-authorized', sent: false });
    expect(await invoke({ account: account.address, delegate: b!.address, tokenId, token })).toEqual({ kind: 'not-authorized', sent: false });
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [b!.address] });
  });

  it("shows a 403 page, keeping the link used, when another invocation used the page's token first", async () => {
    const account = await world.trackAccount({ label: 'page-refused', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const form = formOf(await getPage(world.revokeLink(account.address, delegate)));
    let replayed: unknown;
    world.beforeTokenCheck = async (tokenId) => {
      world.beforeTokenCheck = null;
      // Someone allowed to invoke sign-revocation replays the page's request first; it points the
      // delegate the link names, so all it can do is what the owner asked for.
      replayed = await invoke({ account: account.address, delegate: account.delegates[0]!.address, tokenId, token: form.fields['token'] });
    };
    let refused;
    try {
      refused = await submitForm(form.action, form.fields);
    } finally {
      world.beforeTokenCheck = null;
    }
    expect(replayed).toMatchObject({ kind: 'revoked', nonce: 1 });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('This revocation was not requested through a valid link');
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [] });
    const again = await submitForm(form.action, form.fields);
    expect(again.status).toBe(409);
    // The replay's outcome is kept on the token: the used link says what it did.
    expect(titleOf(again)).toBe('This link was used: the API key was revoked');
  });

  it('refuses a token consumed more than a minute before it runs (a burned link cannot be replayed)', async () => {
    const account = await world.trackAccount({ label: 'stale-consumed', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const request = await world.consumedRequest(account.address, delegate);
    const later = createSignRevocationHandler({ ...world.signDeps, now: () => Date.now() + MAX_CONSUMED_TOKEN_AGE_MS + 1_000 });
    expect(await later(request, lambdaContext('sign-revocation'))).toEqual({ kind: 'not-authorized', sent: false });
    const [audit] = await world.repos.audit.listForAccount(account.address, 1);
    expect(audit).toMatchObject({
      outcome: 'not-authorized',
      message: expect.stringMatching(/^the link was consumed \d+ s ago, more than 60 s before this signing$/),
    });
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [delegate] });

    // Within the minute it signs.
    const fresh = await world.consumedRequest(account.address, delegate);
    const soon = createSignRevocationHandler({ ...world.signDeps, now: () => Date.now() + MAX_CONSUMED_TOKEN_AGE_MS - 5_000 });
    expect(await soon(fresh, lambdaContext('sign-revocation'))).toMatchObject({ kind: 'revoked' });
  });
});
