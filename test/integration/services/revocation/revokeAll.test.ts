import { verifyMessage } from 'ethers';
import { describe, expect, it } from 'vitest';
import { buildRemoveDelegateManager } from '../../../../functions/chain/transactionBuilders';
import { revokeAllUnitId } from '../../../../functions/domain/revokeAllUnit';
import { revokeDelegate } from '../../../../functions/services/revocation/revokeDelegate';
import { channelRecordOf } from '../../../support/channels/channelRecordFixture';
import { unescapeHtml } from '../../../support/htmlText';
import { formOf, getPage, revocationWorld, submitForm, titleOf, type Page } from '../../../support/revocation/revocationWorld';

/** The page's limits, small so a test walks its pages with a few keys (deployed: 50 a page, 200 a link). */
const LIMITS = { keysPerPage: 3, keysPerLink: 7 };
const world = revocationWorld({ revokeAllLimits: LIMITS });

async function chainState(account: string) {
  const view = await world.control.account(account);
  return { nonce: view.nonce, delegates: view.delegates.map((d) => d.address) };
}

async function intentsOf(account: string) {
  return (await world.repos.audit.listForAccount(account, 100)).filter((a) => a.kind === 'intent').reverse();
}

/** Each intent's signature, checked by ethers (not our code) against the account's address over the transaction it names. */
function expectSignedByOwner(account: string, intent: { delegate?: string | undefined; nonce?: number | undefined; txSignature?: string | undefined }): void {
  const data = buildRemoveDelegateManager({ sender: account as `0x${string}`, manager: intent.delegate as `0x${string}`, nonce: intent.nonce ?? -1 });
  const bytes = Buffer.from(JSON.stringify({ sender: data.sender, instruction: data.instruction, nonce: data.nonce }), 'utf8');
  expect(verifyMessage(bytes, intent.txSignature ?? '')).toBe(account);
}

function rowsOf(page: Page): string[] {
  return [...page.html.matchAll(/<tr><td>([^<]*)<\/td><td><code>(0x[0-9a-fA-F]{40})<\/code><\/td><td>([^<]*)<\/td><\/tr>/g)].map(
    (m) => `${m[1]} ${m[2]} ${m[3]}`,
  );
}

describe('revoke all, one click, against the simulator', () => {
  it('GET lists every delegate and changes nothing; POST revokes each once, in nonce order, audited and signed by the owner', async () => {
    const account = sorted(await world.trackAccount({ label: 'revoke-all', delegates: ['bot-a', 'bot-b', 'bot-c'] }));
    const link = world.revokeAllLink(account.address);

    const page = await getPage(link);
    expect(page.status).toBe(200);
    expect(titleOf(page)).toBe('Revoke all 3 API keys?');
    for (const d of account.delegates) {
      expect(page.html).toContain(d.name);
      expect(page.html).toContain(d.address);
    }
    expect(page.html).toContain('A key added after this page was opened is not included');
    expect((await chainState(account.address)).nonce).toBe(0);
    expect((await chainState(account.address)).delegates.sort()).toEqual(account.delegates.map((d) => d.address).sort());
    expect(await world.repos.revokeAll.get([...(await batchTokens(link))][0]!)).toBeNull();

    const form = formOf(page);
    expect(form.action).toBe(`${world.server.url}/revoke-all`);
    expect(form.fields['keys']?.split(',')).toEqual(account.delegates.map((d) => d.address));
    const queued = await submitForm(form.action, form.fields);
    expect(queued.status).toBe(200);
    expect(titleOf(queued)).toBe('Revoking API keys…');
    expect(queued.html).toMatch(/<meta http-equiv="refresh" content="3; url=http:\/\/127\.0\.0\.1:\d+\/revoke-all\?token=/);
    expect(rowsOf(queued).every((r) => r.endsWith(' queued'))).toBe(true);

    await world.revokeAll.drain();
    expect(await chainState(account.address)).toEqual({ nonce: 3, delegates: [] });
    const intents = await intentsOf(account.address);
    expect(intents.map((i) => [i.delegate, i.nonce])).toEqual(account.delegates.map((d, i) => [d.address, i + 1]));
    for (const intent of intents) expectSignedByOwner(account.address, intent);

    const done = await getPage(link);
    expect(titleOf(done)).toBe('All API keys revoked');
    expect(done.html).not.toContain('http-equiv="refresh"');
    expect(rowsOf(done)).toEqual(account.delegates.map((d, i) => `${d.name} ${d.address} revoked (nonce ${i + 1})`));
    expect(done.html).not.toContain('<form');
  });

  it('an account with more keys than one page holds: the first page, then the rest from the same link, and no "all revoked" before they are gone', async () => {
    const names = Array.from({ length: LIMITS.keysPerPage + 2 }, (_, i) => `bot-${String(i).padStart(2, '0')}`);
    const account = sorted(await world.trackAccount({ label: 'revoke-all-many', delegates: names }));
    const all = account.delegates.map((d) => d.address);
    const link = world.revokeAllLink(account.address);

    const page = await getPage(link);
    expect(unescapeHtml(titleOf(page))).toBe(`Revoke ${LIMITS.keysPerPage} of the account's ${all.length} API keys?`);
    expect(page.html).toContain(`Once they are done, this page offers the other 2.`);
    const first = formOf(page);
    expect(first.fields['keys']?.split(',')).toEqual(all.slice(0, LIMITS.keysPerPage));
    await submitForm(first.action, first.fields);
    await world.revokeAll.drain();
    const between = await chainState(account.address);
    expect({ ...between, delegates: [...between.delegates].sort() }).toEqual({
      nonce: LIMITS.keysPerPage,
      delegates: [...all.slice(LIMITS.keysPerPage)].sort(),
    });

    const partly = await getPage(link);
    expect(titleOf(partly)).toBe('More API keys to revoke: 2 still listed');
    expect(rowsOf(partly)).toHaveLength(LIMITS.keysPerPage);
    const rest = formOf(partly);
    expect(rest.fields['keys']?.split(',')).toEqual(all.slice(LIMITS.keysPerPage));
    await world.notify.drain();
    const firstResult = world.notified.filter((m) => m.kind === 'revoke-all-result' && m.account === account.address);
    expect(firstResult.map((m) => (m.kind === 'revoke-all-result' ? m.units.length : 0))).toEqual([LIMITS.keysPerPage]);

    await submitForm(rest.action, rest.fields);
    await world.revokeAll.drain();
    expect(await chainState(account.address)).toEqual({ nonce: all.length, delegates: [] });
    const done = await getPage(link);
    expect(titleOf(done)).toBe('All API keys revoked');
    expect(rowsOf(done)).toEqual(account.delegates.map((d, i) => `${d.name} ${d.address} revoked (nonce ${i + 1})`));
    expect(done.html).not.toContain('<form');
    // The batch settled a second time: a new result, of every key of the link.
    await world.notify.drain();
    const results = world.notified.filter((m) => m.kind === 'revoke-all-result' && m.account === account.address);
    expect(results.map((m) => (m.kind === 'revoke-all-result' ? m.units.length : 0))).toEqual([LIMITS.keysPerPage, all.length]);
  });

  it(`a link revokes at most ${LIMITS.keysPerLink} keys over its pages: a form past that is refused and queues nothing`, async () => {
    const account = sorted(await world.trackAccount({ label: 'revoke-all-full', delegates: ['bot-a'] }));
    const link = world.revokeAllLink(account.address);
    const form = formOf(await getPage(link));
    // The batch already holds the most keys a link revokes (as after its full pages), all settled.
    const tokenId = [...(await batchTokens(link))][0]!;
    const filler = Array.from({ length: LIMITS.keysPerLink }, (_, i) => `0xf${(i + 1).toString(16).padStart(39, '0')}`);
    for (const delegate of filler) {
      const submitted = await world.repos.revokeAll.submit(tokenId, { account: account.address, expiresAt: Date.now() + 3_600_000 }, delegate);
      if (submitted.kind !== 'queued') throw new Error(`the filler unit was not queued: ${JSON.stringify(submitted)}`);
      await world.repos.revokeAll.finish(tokenId, delegate, { state: 'done', attempt: 1, at: Date.now(), outcome: { kind: 'already-revoked', sent: false } });
    }
    const refused = await submitForm(form.action, form.fields);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(`this link has revoked the most keys one link does (${LIMITS.keysPerLink}): use a new link for the others`);
    expect((await world.repos.revokeAll.get(tokenId))?.units[account.delegates[0]!.address]).toBeUndefined();
    await world.revokeAll.drain();
    expect(await chainState(account.address)).toEqual({ nonce: 0, delegates: [account.delegates[0]!.address] });
    // Its result page sends the key left to a new link.
    const page = await getPage(link);
    expect(page.html).toContain(`This link has revoked the most keys one link does (${LIMITS.keysPerLink}). Use a new link`);
    expect(page.html).not.toContain('<form');
  });

  it('double submit and queue redelivery revoke each delegate once', async () => {
    const account = sorted(await world.trackAccount({ label: 'revoke-all-twice', delegates: ['bot-a', 'bot-b'] }));
    const link = world.revokeAllLink(account.address);
    const form = formOf(await getPage(link));
    const pages = await Promise.all([submitForm(form.action, form.fields), submitForm(form.action, form.fields)]);
    expect(pages.map((p) => p.status)).toEqual([200, 200]);
    await world.revokeAll.drain();

    // Every job again, as a redelivery would hand them over.
    const batchToken = [...(await batchTokens(link))][0]!;
    await world.revokeAll.send(
      account.delegates.map((d, i) => ({
        id: `${i}`,
        body: {
          kind: 'revoke-all-unit',
          account: account.address,
          delegate: d.address,
          tokenId: batchToken,
          attempt: 1,
          expiresAt: Date.now() + 3_600_000,
          token: new URL(link).searchParams.get('token') ?? '',
        },
      })),
    );
    await world.revokeAll.drain();
    // Each delegate was signed for once, under its own unit token derived from the link. Two POSTs
    // racing may each queue one delegate, so the signing order between them is not fixed.
    const intents = await intentsOf(account.address);
    expect(intents.map((i) => i.tokenId)).toEqual(intents.map((i) => revokeAllUnitId(batchToken, i.delegate ?? expect.fail('an intent names no delegate'))));
    expect(intents.map((i) => i.delegate).sort()).toEqual(account.delegates.map((d) => d.address).sort());

    expect(await chainState(account.address)).toEqual({ nonce: 2, delegates: [] });
    const again = await submitForm(form.action, form.fields);
    expect(titleOf(again)).toBe('All API keys revoked');
    await world.revokeAll.drain();
    expect((await chainState(account.address)).nonce).toBe(2);
  });

  it('shows a partial failure per delegate; a retry submits only the one that sent nothing', async () => {
    const account = sorted(await world.trackAccount({ label: 'revoke-all-partial', delegates: ['bot-a', 'bot-b', 'bot-c'] }));
    const [a, b, c] = account.delegates;
    const link = world.revokeAllLink(account.address);
    await submitWithOneFailing(link, b!.address);
    expect(await chainState(account.address)).toEqual({ nonce: 2, delegates: [b!.address] });
    const partial = await getPage(link);
    expect(titleOf(partial)).toBe('Some API keys were not revoked');
    expect(rowsOf(partial)).toEqual([
      `${a!.name} ${a!.address} revoked (nonce 1)`,
      `${b!.name} ${b!.address} not sent: the chain could not be reached`,
      `${c!.name} ${c!.address} revoked (nonce 2)`,
    ]);
    const retry = formOf(partial);
    expect(retry.fields['keys']).toBe(b!.address);

    const retried = await submitForm(retry.action, retry.fields);
    expect(rowsOf(retried)).toContain(`${b!.name} ${b!.address} queued`);
    await world.revokeAll.drain();
    expect(await chainState(account.address)).toEqual({ nonce: 3, delegates: [] });
    expect((await intentsOf(account.address)).map((i) => i.delegate)).toEqual([a!.address, c!.address, b!.address]);
    expect(rowsOf(await getPage(link))).toContain(`${b!.name} ${b!.address} revoked (nonce 3)`);
  });

  it('a used link of an account no longer tracked shows each key as it stands on GET and POST and queues nothing; one never used reads not tracked', async () => {
    const account = sorted(await world.trackAccount({ label: 'revoke-all-untracked', delegates: ['bot-a', 'bot-b'] }));
    const [a, b] = account.delegates;
    const link = world.revokeAllLink(account.address);
    await submitWithOneFailing(link, b!.address);
    const retry = formOf(await getPage(link));
    expect(retry.fields['keys']).toBe(b!.address);
    const unused = await world.trackAccount({ label: 'revoke-all-untracked-unused', delegates: ['bot'] });
    const unusedLink = world.revokeAllLink(unused.address);
    expect((await world.repos.accounts.remove(account.address)).kind).toBe('removed');
    expect((await world.repos.accounts.remove(unused.address)).kind).toBe('removed');

    for (const page of [await getPage(link), await submitForm(retry.action, retry.fields)]) {
      expect(titleOf(page)).toBe('Some API keys were not revoked');
      expect(rowsOf(page)).toEqual([`${a!.name} ${a!.address} revoked (nonce 1)`, `${b!.name} ${b!.address} not sent: the chain could not be reached`]);
      expect(page.html).toContain('Portfolio Sentinel no longer tracks this account. This link sends nothing more');
      expect(page.html).not.toContain('Nothing was changed');
      expect(page.html).not.toMatch(/<form/);
    }
    await world.revokeAll.drain();
    expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [b!.address] });

    const never = await getPage(unusedLink);
    expect(never.status).toBe(404);
    expect(titleOf(never)).toBe('Account not tracked');
    expect(never.html).toContain('Nothing was changed');
  });

  it("a chat's link used, then withdrawn by its channel (revoke-links, remove, a new channel of its name): GET and POST show each key's result and queue nothing; one never used still reads withdrawn", async () => {
    const account = sorted(await world.trackAccount({ label: 'revoke-all-used-withdrawn', delegates: ['bot-a', 'bot-b'] }));
    const [a, b] = account.delegates;
    await world.addChatChannel('used-room', account.address);
    const link = world.links.build({ purpose: 'revoke-all', account: account.address, channel: 'used-room' }, Date.now());
    const unused = formOf(await getPage(world.links.build({ purpose: 'revoke-all', account: account.address, channel: 'used-room' }, Date.now())));
    // b sends nothing (the chain cannot be reached): a unit the page would offer again while the link stood.
    const batchToken = await submitWithOneFailing(link, b!.address);
    const results = [`${a!.name} ${a!.address} revoked (nonce 1)`, `${b!.name} ${b!.address} not sent: the chain could not be reached`];
    const retry = formOf(await getPage(link));
    expect(retry.fields['keys']).toBe(b!.address);
    const before = await world.repos.revokeAll.get(batchToken);

    const withdrawals: [string, () => Promise<unknown>][] = [
      ['The links of the channel used-room were withdrawn after this message was posted.', () => world.repos.channels.revokeLinks('used-room', Date.now())],
      ['The channel used-room this link was posted to has been removed or replaced since.', () => world.repos.channels.remove('used-room')],
      [
        'The channel used-room this link was posted to has been removed or replaced since.',
        () =>
          world.repos.channels.create(channelRecordOf({ name: 'used-room', type: 'slack', secret: 'env:SLACK', accounts: [account.address] }, Date.now() + 1)),
      ],
    ];
    for (const [why, withdraw] of withdrawals) {
      await withdraw();
      for (const page of [await getPage(link), await submitForm(retry.action, retry.fields)]) {
        expect(page.status, why).toBe(200);
        expect(titleOf(page)).toBe('Some API keys were not revoked');
        expect(rowsOf(page)).toEqual(results);
        expect(page.html).toContain(`${why} This link sends nothing more; it shows what became of each key.`);
        expect(page.html).toContain('One key cannot be tried again from this link');
        expect(page.html, 'no retry form on a withdrawn link').not.toContain('<form');
      }
      await world.revokeAll.drain();
      expect(await world.repos.revokeAll.get(batchToken), 'nothing marked again').toEqual(before);
      expect(await chainState(account.address)).toEqual({ nonce: 1, delegates: [b!.address] });
      // The link never used does nothing, on GET and POST alike.
      const [shown, posted] = [
        await getPage(`${unused.action}?token=${encodeURIComponent(unused.fields['token'] ?? '')}`),
        await submitForm(unused.action, unused.fields),
      ];
      expect([shown.status, posted.status]).toEqual([410, 410]);
      expect(titleOf(shown)).toBe('This link was withdrawn');
    }
  });

  it('binds the keys the page showed: an altered key list or a cross-origin POST queues nothing', async () => {
    const account = await world.trackAccount({ label: 'revoke-all-bound', delegates: ['bot-a', 'bot-b'] });
    const link = world.revokeAllLink(account.address);
    const form = formOf(await getPage(link));
    // A key added after the page was shown is not in its form.
    const later = await world.control.addDelegate(account.address, { name: 'late-bot', expiresInMs: 3_600_000 });
    const widened = await submitForm(form.action, { ...form.fields, keys: `${form.fields['keys']},${later.delegate.address}` });
    expect(widened.status).toBe(403);
    const narrowed = await submitForm(form.action, { ...form.fields, keys: account.delegates[0]!.address });
    expect(narrowed.status).toBe(403);
    const evil = await submitForm(form.action, form.fields, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    await world.revokeAll.drain();
    expect((await chainState(account.address)).nonce).toBe(0);

    await submitForm(form.action, form.fields);
    await world.revokeAll.drain();
    expect(await chainState(account.address)).toEqual({ nonce: 2, delegates: [later.delegate.address] });
  });

  it('a key just revoked (by its own link, or found gone by the signer) is no longer listed, before any poll', async () => {
    const account = sorted(await world.trackAccount({ label: 'revoke-all-after-click', delegates: ['bot-a', 'bot-b', 'bot-c'] }));
    const [first, second, third] = account.delegates;
    expect(await revokeDelegate(world.signDeps, await world.consumedRequest(account.address, first!.address))).toMatchObject({ kind: 'revoked' });
    // Removed on the chain behind the service's back: the signer finds it gone.
    await world.control.removeDelegate(account.address, second!.address);
    expect(await revokeDelegate(world.signDeps, await world.consumedRequest(account.address, second!.address))).toMatchObject({ kind: 'already-revoked' });

    const page = await getPage(world.revokeAllLink(account.address));
    expect(titleOf(page)).toBe('Revoke all 1 API key?');
    expect(page.html).not.toContain(first!.address);
    expect(page.html).not.toContain(second!.address);
    expect(formOf(page).fields['keys']).toBe(third!.address);
    // The views keep their records (the next report lists them as removed).
    const views = await world.repos.delegates.listForAccount(account.address);
    expect(views.filter((v) => v.removedAt !== null).map((v) => v.delegate)).toEqual([first!.address, second!.address]);
  });

  it('the signer still signs only for a consumed unit token: a unit of a genuine link that nobody consumed is refused', async () => {
    const account = await world.trackAccount({ label: 'revoke-all-signer', delegates: ['bot'] });
    const { createSignRevocationHandler } = await import('../../../../functions/handlers/sign-revocation');
    const { lambdaContext } = await import('../../../../local/lambdaContext');
    const link = world.revokeAllLink(account.address);
    const unit = revokeAllUnitId([...(await batchTokens(link))][0]!, account.delegates[0]!.address);
    const outcome = await createSignRevocationHandler(world.signDeps)(
      { account: account.address, delegate: account.delegates[0]!.address, tokenId: unit, token: new URL(link).searchParams.get('token') ?? '' },
      lambdaContext('sign-revocation'),
    );
    expect(outcome).toEqual({ kind: 'not-authorized', sent: false });
    const [audit] = await world.repos.audit.listForAccount(account.address, 1);
    expect(audit).toMatchObject({ outcome: 'not-authorized', message: 'no consumed revocation link has this token id' });
    expect((await chainState(account.address)).nonce).toBe(0);
  });
});

/** The account with its delegates in the order the page lists them (by address). */
function sorted<A extends { delegates: { address: string }[] }>(account: A): A {
  return { ...account, delegates: [...account.delegates].sort((x, y) => (x.address < y.address ? -1 : 1)) };
}

/**
 * Submits the revoke-all page of `link` and drains its jobs while the chain cannot be reached for
 * `failing`'s unit alone (a 500 on its nonce read), so that key sends nothing; returns the batch's token id.
 */
async function submitWithOneFailing(link: string, failing: string): Promise<string> {
  const batchToken = [...(await batchTokens(link))][0]!;
  const unit = revokeAllUnitId(batchToken, failing);
  world.beforeTokenCheck = async (tokenId) => {
    if (tokenId === unit) await world.control.setFaults({ routes: { 'account-nonce': { error500: 1 } } });
    else await world.control.resetFaults();
  };
  try {
    await submitForm(...(Object.values(formOf(await getPage(link))) as [string, Record<string, string>]));
    await world.revokeAll.drain();
  } finally {
    world.beforeTokenCheck = null;
    await world.control.resetFaults();
  }
  return batchToken;
}

/** The token id a revoke-all link carries (read back through the link codec the world uses). */
async function batchTokens(link: string): Promise<Set<string>> {
  const check = world.links.read('revoke-all', new URL(link).searchParams.get('token') ?? undefined, Date.now());
  if (check.kind !== 'valid') throw new Error('bad link');
  return new Set([check.claims.tokenId]);
}
