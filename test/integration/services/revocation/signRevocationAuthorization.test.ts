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

/** A link for an account's one delegate, consumed, then signed more than a minute later: refused as stale. */
async function staleRefusal(label: string) {
  const account = await world.trackAccount({ label, delegates: ['bot'] });
  const delegate = account.delegates[0]!.address;
  const request = await world.consumedRequest(account.address, delegate);
  const later = createSignRevocationHandler({ ...world.signDeps, now: () => Date.now() + MAX_CONSUMED_TOKEN_AGE_MS + 1_000 });
  expect(await later(request, lambdaContext('sign-revocation'))).toEqual({ kind: 'not-authorized', sent: false, refusal: 'link-stale' });
  return { account, delegate, request };
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

    expect(await invoke(request)).toEqual({ kind: 'not-authorized', sent: false, refusal: 'already-used' });
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
    expect(await invoke({ account: account.address, delegate: a!.address, tokenId, token })).toEqual({
      kind: 'not-authorized',
      sent: false,
      refusal: 'already-used',
    });
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
    expect(refused.html).toContain(
      'Portfolio Sentinel refused to sign this revocation: the link had already been used for another attempt. This attempt sent nothing to the chain',
    );
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [] });
    const again = await submitForm(form.action, form.fields);
    expect(again.status).toBe(409);
    // The replay's outcome is kept on the token: the used link says what it did.
    expect(titleOf(again)).toBe('This link was used: the API key was revoked');
  });

  it('refuses a token consumed more than a minute before it runs (a burned link cannot be replayed)', async () => {
    const { account, delegate } = await staleRefusal('stale-consumed');
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

describe("a refusal of a link that itself verified is kept on the link's token", () => {
  /** The token id of a link URL. */
  function tokenIdOf(link: string): string {
    const check = world.links.read('revoke', new URL(link).searchParams.get('token') ?? '', Date.now());
    if (check.kind !== 'valid') throw new Error('bad link');
    return check.claims.tokenId;
  }

  it("the chat channel is removed between the page's check and the signer's: refused, and the link opened again says so", async () => {
    const account = await world.trackAccount({ label: 'race-channel', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    await world.addChatChannel('race-room', account.address);
    const link = world.links.build({ purpose: 'revoke', account: account.address, delegate, channel: 'race-room' }, Date.now());
    const form = formOf(await getPage(link));
    world.beforeChannelCheck = async (name) => {
      world.beforeChannelCheck = null;
      expect(await world.repos.channels.remove(name)).toEqual({ kind: 'removed' });
    };
    let refused;
    try {
      refused = await submitForm(form.action, form.fields);
    } finally {
      world.beforeChannelCheck = null;
    }
    expect(refused.status).toBe(403);
    expect(titleOf(refused)).toBe('Revocation refused');
    expect(refused.html).toContain('the chat channel the link was posted to was removed meanwhile');
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [delegate] });
    expect(await world.repos.tokens.get(tokenIdOf(link), 'revoke')).toMatchObject({
      signedAt: null,
      outcome: { result: { kind: 'not-authorized', sent: false, refusal: 'channel-removed' }, at: expect.any(Number) },
    });

    for (const again of [await getPage(link), await submitForm(form.action, form.fields)]) {
      expect(again.status).toBe(409);
      expect(titleOf(again)).toBe('This link was used: the revocation was refused');
      expect(again.html).toContain('the chat channel the link was posted to was removed meanwhile. Nothing was sent to the chain');
      expect(again.html).toContain('sentinel link revoke');
      expect(again.html).not.toContain('not known');
    }
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [delegate] });
    expect(await resultEmailsFor(account.address)).toEqual([]);
  });

  it('a token refused as stale is never signed afterwards, and its page says it was refused', async () => {
    const { account, delegate, request } = await staleRefusal('stale-kept');
    const kept = await world.repos.tokens.get(request.tokenId, 'revoke');
    expect(kept?.outcome?.result).toEqual({ kind: 'not-authorized', sent: false, refusal: 'link-stale' });

    // A signing that checked the token's age before the refusal was kept cannot mark it signed after.
    expect(await world.repos.tokens.markSigned(request.tokenId, kept!.consumedAt)).toEqual({ kind: 'refused' });
    expect(await invoke(request)).toEqual({ kind: 'not-authorized', sent: false, refusal: 'already-used' });
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [delegate] });
    expect(await world.repos.tokens.get(request.tokenId, 'revoke')).toMatchObject({ signedAt: null, outcome: kept!.outcome });
  });

  it('an already-signed token keeps its outcome when a later replay is refused', async () => {
    const account = await world.trackAccount({ label: 'signed-kept', delegates: ['bot'] });
    const delegate = account.delegates[0]!.address;
    const link = world.revokeLink(account.address, delegate);
    const form = formOf(await getPage(link));
    expect(titleOf(await submitForm(form.action, form.fields))).toBe('API key revoked');
    const tokenId = tokenIdOf(link);
    const signed = await world.repos.tokens.get(tokenId, 'revoke');
    expect(signed).toMatchObject({ signedAt: expect.any(Number), outcome: { result: { kind: 'revoked' } } });

    const replay = { account: account.address, delegate, tokenId, token: form.fields['token'] };
    const later = createSignRevocationHandler({ ...world.signDeps, now: () => Date.now() + MAX_CONSUMED_TOKEN_AGE_MS + 1_000 });
    expect(await later(replay, lambdaContext('sign-revocation'))).toEqual({ kind: 'not-authorized', sent: false, refusal: 'link-stale' });
    expect(await invoke(replay)).toEqual({ kind: 'not-authorized', sent: false, refusal: 'already-used' });
    expect(await world.repos.tokens.get(tokenId, 'revoke')).toEqual(signed);
    const again = await getPage(link);
    expect(again.status).toBe(409);
    expect(titleOf(again)).toBe('This link was used: the API key was revoked');
  });

  it('a forged or mismatched request keeps nothing on the token', async () => {
    const account = await world.trackAccount({ label: 'forged-kept', delegates: ['bot-a', 'bot-b'] });
    const [a, b] = account.delegates;
    const request = await world.consumedRequest(account.address, a!.address);
    const consumed = await world.repos.tokens.get(request.tokenId, 'revoke');
    const otherSecret = new LinkTokenCodec(`${LINK_SECRET}-other`).sign(
      'revoke',
      issueClaims({ purpose: 'revoke', account: account.address, delegate: a!.address }, request.tokenId, Date.now()),
    );
    const forged = [
      { ...request, token: otherSecret },
      { ...request, delegate: b!.address },
      {
        ...request,
        token: new LinkTokenCodec(LINK_SECRET).sign(
          'revoke',
          issueClaims({ purpose: 'revoke', account: account.address, delegate: a!.address }, 'another-token-id-00000001', Date.now()),
        ),
      },
    ];
    for (const attempt of forged) expect(await invoke(attempt)).toEqual({ kind: 'not-authorized', sent: false });
    // A consumed record for another delegate than the link's: refused, nothing kept on it either.
    const mismatched = await world.consumedRequest(account.address, a!.address, { delegate: b!.address });
    expect(await invoke(mismatched)).toEqual({ kind: 'not-authorized', sent: false });
    expect(await world.repos.tokens.get(mismatched.tokenId, 'revoke')).toMatchObject({ outcome: null, signedAt: null });

    expect(await world.repos.tokens.get(request.tokenId, 'revoke')).toEqual(consumed);
    expect(consumed).toMatchObject({ outcome: null, signedAt: null });
    // The genuine request still signs.
    expect(await invoke(request)).toMatchObject({ kind: 'revoked' });
  });
});
