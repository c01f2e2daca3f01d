import { describe, expect, it } from 'vitest';
import { issueClaims } from '../../../../functions/domain/linkClaims';
import { revokeAllUnitId } from '../../../../functions/domain/revokeAllUnit';
import { createSignRevocationHandler } from '../../../../functions/handlers/sign-revocation';
import { LinkTokenCodec } from '../../../../functions/links/linkToken';
import { lambdaContext } from '../../../../local/lambdaContext';
import { HOUR, LINK_SECRET, revocationWorld } from '../../../support/revocation/revocationWorld';
import type { LinkRefusal } from '../../../../functions/domain/linkRefusal';

/*
 * "With this function's grants, forge X: the signer refuses." Each case writes only what the named
 * function may write (revoke-page and the revoke-all worker: `revoke#*` token records and an
 * invocation of the signer; revoke-all-page: `revoke-all#*` batches and the revocations queue), as
 * code running in that function could, and the victim's key stays listed on the chain.
 */

const world = revocationWorld();

const invoke = (request: unknown) => createSignRevocationHandler(world.signDeps)(request, lambdaContext('sign-revocation'));

/** The token of a link URL. */
const tokenOf = (link: string): string => new URL(link).searchParams.get('token') ?? '';

/** The token id a link carries. */
function tokenIdOf(purpose: 'revoke' | 'revoke-all', link: string): string {
  const check = world.links.read(purpose, tokenOf(link), Date.now());
  if (check.kind !== 'valid') throw new Error('bad link');
  return check.claims.tokenId;
}

/** A consumed `revoke#` record, as revoke-page (or the revoke-all worker) may put any. */
async function forgeConsumed(tokenId: string, account: string, delegate: string, batch?: string): Promise<void> {
  const consumed = await world.repos.tokens.consume(tokenId, {
    purpose: 'revoke',
    account,
    delegate,
    expiresAt: Date.now() + HOUR,
    ...(batch === undefined ? {} : { batch }),
  });
  expect(consumed.kind).toBe('consumed');
}

async function lastRefusal(account: string): Promise<string | undefined> {
  const [audit] = await world.repos.audit.listForAccount(account, 1);
  expect(audit).toMatchObject({ outcome: 'not-authorized' });
  return audit?.message;
}

/**
 * Invokes the signer with `request`, which it must refuse without sending anything; returns why, as
 * audited. A forged link keeps nothing on the token; a genuine link refused for its use (`kept`)
 * keeps that refusal on it.
 */
async function refusal(request: { account: string; delegate: string; tokenId: string; token: string }, kept?: LinkRefusal): Promise<string | undefined> {
  const before = await world.repos.tokens.get(request.tokenId, 'revoke');
  expect(await invoke(request)).toEqual({ kind: 'not-authorized', sent: false, ...(kept === undefined ? {} : { refusal: kept }) });
  const after = await world.repos.tokens.get(request.tokenId, 'revoke');
  if (kept === undefined) expect(after).toEqual(before);
  else expect(after?.outcome?.result).toEqual({ kind: 'not-authorized', sent: false, refusal: kept });
  return lastRefusal(request.account);
}

describe("with revoke-page's grants (any revoke# record, invoking the signer)", () => {
  it('forge a consumed record for another account and invoke without a link: refused as malformed, nothing signed', async () => {
    const victim = await world.trackAccount({ label: 'forged-no-link', delegates: ['bot'] });
    const delegate = victim.delegates[0]!.address;
    await forgeConsumed('forged-record-no-link-01', victim.address, delegate);
    await expect(invoke({ account: victim.address, delegate, tokenId: 'forged-record-no-link-01' })).rejects.toThrow(
      /^sign-revocation takes \{account, delegate, tokenId, token\}/,
    );
    expect(await world.chainState(victim.address)).toEqual({ nonce: 0, delegates: [delegate] });
  });

  it("forge a record matching the attacker's own genuine link, re-aimed at the victim: refused", async () => {
    const victim = await world.trackAccount({ label: 'forged-own-link-victim', delegates: ['bot'] });
    const own = await world.trackAccount({ label: 'forged-own-link', delegates: ['mine'] });
    const delegate = victim.delegates[0]!.address;
    const link = world.revokeLink(own.address, own.delegates[0]!.address);
    const tokenId = tokenIdOf('revoke', link);
    await forgeConsumed(tokenId, victim.address, delegate);
    expect(await refusal({ account: victim.address, delegate, tokenId, token: tokenOf(link) })).toBe('the signed link is for another account');
    expect(await world.chainState(victim.address)).toEqual({ nonce: 0, delegates: [delegate] });
    expect((await world.chainState(own.address)).nonce).toBe(0);
  });

  it("forge a link for another key of the victim's from a genuine one of the same account: refused", async () => {
    const victim = await world.trackAccount({ label: 'forged-other-key', delegates: ['bot-a', 'bot-b'] });
    const [a, b] = victim.delegates;
    const link = world.revokeLink(victim.address, a!.address);
    const tokenId = tokenIdOf('revoke', link);
    await forgeConsumed(tokenId, victim.address, b!.address);
    expect(await refusal({ account: victim.address, delegate: b!.address, tokenId, token: tokenOf(link) })).toBe('the signed link is for another delegate');
    expect((await world.chainState(victim.address)).nonce).toBe(0);
  });

  it('forge a link signed with a key that is not the published revoke key (another secret, or the revoke-all key): refused', async () => {
    const victim = await world.trackAccount({ label: 'forged-key', delegates: ['bot'] });
    const delegate = victim.delegates[0]!.address;
    const tokenId = 'forged-signature-000001';
    const claims = issueClaims({ purpose: 'revoke', account: victim.address, delegate }, tokenId, Date.now());
    const otherSecret = new LinkTokenCodec('an-attacker-chosen-secret-0123456789abcdef');
    // The right secret, the wrong purpose's key: a revoke-all signature over revoke claims.
    const crossed = new LinkTokenCodec(LINK_SECRET).sign('revoke-all', claims);
    for (const token of [otherSecret.sign('revoke', claims), crossed, `${tokenOf(world.revokeLink(victim.address, delegate)).slice(0, -4)}AAAA`]) {
      await world.repos.tokens.release(tokenId, 'revoke');
      await forgeConsumed(tokenId, victim.address, delegate);
      expect(await refusal({ account: victim.address, delegate, tokenId, token })).toBe('the request carries no valid revoke or revoke-all link');
    }
    expect(await world.chainState(victim.address)).toEqual({ nonce: 0, delegates: [delegate] });
  });

  it("replay the victim's own link after it expired: refused", async () => {
    const victim = await world.trackAccount({ label: 'forged-expired', delegates: ['bot'] });
    const delegate = victim.delegates[0]!.address;
    const link = world.revokeLink(victim.address, delegate, Date.now() - 73 * HOUR);
    const tokenId = tokenIdOf('revoke', world.revokeLink(victim.address, delegate)).replace(/^./, 'x');
    const expiredId = (() => {
      const check = world.links.read('revoke', tokenOf(link), Date.now());
      if (check.kind !== 'expired') throw new Error('the link should have expired');
      return check.claims.tokenId;
    })();
    expect(tokenId).not.toBe(expiredId);
    await forgeConsumed(expiredId, victim.address, delegate);
    expect(await refusal({ account: victim.address, delegate, tokenId: expiredId, token: tokenOf(link) })).toBe('the signed link has expired');
    expect((await world.chainState(victim.address)).nonce).toBe(0);
  });
});

describe("with revoke-page's grants, a chat's link its channel withdrew", () => {
  it('forge its consumption past the page (which would show it withdrawn): the signer checks the channel epoch itself and refuses', async () => {
    const victim = await world.trackAccount({ label: 'forged-withdrawn', delegates: ['bot'] });
    const delegate = victim.delegates[0]!.address;
    await world.addChatChannel('left-room', victim.address);
    const link = world.links.build({ purpose: 'revoke', account: victim.address, delegate, channel: 'left-room' }, Date.now());
    expect(await world.repos.channels.revokeLinks('left-room', Date.now() + 1)).toMatchObject({ kind: 'revoked' });
    const tokenId = tokenIdOf('revoke', link);
    await forgeConsumed(tokenId, victim.address, delegate);
    expect(await refusal({ account: victim.address, delegate, tokenId, token: tokenOf(link) }, 'links-revoked')).toBe(
      'the link was posted to the channel left-room, which withdrew its links since',
    );
    expect(await world.chainState(victim.address)).toEqual({ nonce: 0, delegates: [delegate] });
  });
});

describe("with the revoke-all worker's grants (revoke# records, invoking the signer)", () => {
  it("forge a unit record for the victim's key under the attacker's genuine revoke-all link: refused", async () => {
    const victim = await world.trackAccount({ label: 'forged-unit-victim', delegates: ['bot'] });
    const own = await world.trackAccount({ label: 'forged-unit-own', delegates: ['mine'] });
    const delegate = victim.delegates[0]!.address;
    const link = world.revokeAllLink(own.address);
    const batch = tokenIdOf('revoke-all', link);
    const unit = revokeAllUnitId(batch, delegate);
    await forgeConsumed(unit, victim.address, delegate, batch);
    expect(await refusal({ account: victim.address, delegate, tokenId: unit, token: tokenOf(link) })).toBe(
      "the signed revoke-all link is for another account than the unit's",
    );
    expect(await world.chainState(victim.address)).toEqual({ nonce: 0, delegates: [delegate] });
  });

  it("forge a plain revoke record (no batch) for a unit of the victim's own revoke-all link: refused", async () => {
    const victim = await world.trackAccount({ label: 'forged-unit-nobatch', delegates: ['bot'] });
    const delegate = victim.delegates[0]!.address;
    const link = world.revokeAllLink(victim.address);
    const unit = revokeAllUnitId(tokenIdOf('revoke-all', link), delegate);
    await forgeConsumed(unit, victim.address, delegate);
    expect(await refusal({ account: victim.address, delegate, tokenId: unit, token: tokenOf(link) })).toBe('the consumed token is not of this batch');
    expect((await world.chainState(victim.address)).nonce).toBe(0);
  });
});

describe("with revoke-all-page's grants (revoke-all# batches, the revocations queue)", () => {
  it("a batch for A and a unit for B's key: nothing is revoked on B, and the unit says it was refused", async () => {
    const a = await world.trackAccount({ label: 'batch-a', delegates: ['bot-a'] });
    const b = await world.trackAccount({ label: 'unit-b', delegates: ['bot-b'] });
    const link = world.revokeAllLink(a.address);
    const check = world.links.read('revoke-all', tokenOf(link), Date.now());
    if (check.kind !== 'valid') throw new Error('bad link');
    const batch = check.claims.tokenId;
    const victim = b.delegates[0]!.address;
    expect(await world.repos.revokeAll.submit(batch, { account: a.address, expiresAt: check.claims.expiresAt }, victim)).toEqual({
      kind: 'queued',
      attempt: 1,
    });
    await world.revokeAll.send([
      {
        id: '0',
        body: {
          kind: 'revoke-all-unit',
          account: b.address,
          delegate: victim,
          tokenId: batch,
          attempt: 1,
          expiresAt: check.claims.expiresAt,
          token: tokenOf(link),
        },
      },
    ]);
    await world.revokeAll.drain();
    expect(await world.chainState(b.address)).toEqual({ nonce: 0, delegates: [victim] });
    expect((await world.repos.revokeAll.get(batch))?.units[victim]).toMatchObject({ state: 'done', outcome: { kind: 'not-authorized' } });
    // Nothing was consumed for the unit: the worker refused before asking the signer.
    expect(await world.repos.tokens.get(revokeAllUnitId(batch, victim), 'revoke')).toBeNull();
  });

  it("a batch forged for B, its job carrying A's genuine revoke-all link: the signer refuses", async () => {
    const a = await world.trackAccount({ label: 'forged-batch-a', delegates: ['bot-a'] });
    const b = await world.trackAccount({ label: 'forged-batch-b', delegates: ['bot-b'] });
    const link = world.revokeAllLink(a.address);
    const batch = tokenIdOf('revoke-all', link);
    const victim = b.delegates[0]!.address;
    const expiresAt = Date.now() + HOUR;
    expect(await world.repos.revokeAll.submit(batch, { account: b.address, expiresAt }, victim)).toEqual({ kind: 'queued', attempt: 1 });
    await world.revokeAll.send([
      { id: '0', body: { kind: 'revoke-all-unit', account: b.address, delegate: victim, tokenId: batch, attempt: 1, expiresAt, token: tokenOf(link) } },
    ]);
    await world.revokeAll.drain();
    expect(await world.chainState(b.address)).toEqual({ nonce: 0, delegates: [victim] });
    expect((await world.repos.revokeAll.get(batch))?.units[victim]).toMatchObject({ state: 'done', outcome: { kind: 'not-authorized' } });
    expect(await lastRefusal(b.address)).toBe("the signed revoke-all link is for another account than the unit's");
  });
});
