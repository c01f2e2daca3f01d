import { verifyMessage } from 'ethers';
import { describe, expect, it } from 'vitest';
import { buildRemoveDelegateManager } from '../../../../functions/chain/transactionBuilders';
import { revokeAllUnitId } from '../../../../functions/domain/revokeAllUnit';
import type { NotifyEvent } from '../../../../functions/messages/notifyMessage';
import { sesStore, type StoredEmail } from '../../../support/sesStore';
import { formOf, getPage, mailingNotifyConsumer, revocationWorld, submitForm, titleOf } from '../../../support/revocation/revocationWorld';
import { noticeNewDelegate } from '../../../support/revocation/noticeNewDelegate';

const world = revocationWorld({ notifyConsumer: mailingNotifyConsumer() });

/** The signed token of a link (what the page puts in each queued job). */
function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token') ?? '';
}

function tokenIdOf(link: string): string {
  const check = world.links.read('revoke-all', tokenOf(link), Date.now());
  if (check.kind !== 'valid') throw new Error('bad link');
  return check.claims.tokenId;
}

function drawdownEvent(account: string, at: number): NotifyEvent {
  return {
    kind: 'drawdown',
    eventId: `drawdown:${account}:20:fired:${at}`,
    account,
    at,
    notice: 'fired',
    level: 20,
    levels: [10, 20],
    drawdownPct: 21.5,
    maxDrawdownPct: 21.5,
    dollarDrawdown: 2_150,
    peakAt: at - 3_600_000,
    peakEquity: 10_000,
    equityNow: 7_850,
    pnlNow: -2_150,
    asOf: at,
  };
}

async function mailTo(recipient: string, subject: RegExp): Promise<StoredEmail> {
  const found = (await sesStore({ to: recipient })).filter((m) => subject.test(m.subject));
  expect(found, `mail to ${recipient} matching ${subject}`).toHaveLength(1);
  return found[0]!;
}

/** The revoke-all links of an email: from its HTML buttons (entities decoded) and from its text part. */
function revokeAllLinks(mail: StoredEmail): { html: string[]; text: string[] } {
  const prefix = `${world.server.url}/revoke-all?token=`;
  const html = [...(mail.body.html ?? '').matchAll(/href="([^"]+)"/g)]
    .map((m) => m[1]!.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&'))
    .filter((h) => h.startsWith(prefix));
  const text = [...(mail.body.text ?? '').matchAll(/(http:\/\/\S+\/revoke-all\?token=\S+)/g)].map((m) => m[1]!);
  return { html, text };
}

describe('the revoke-all link in alert emails', () => {
  it('a drawdown alert carries "Revoke all N API keys"; following it revokes every delegate in nonce order, signed by the owner', async () => {
    const account = await world.trackAccount({ label: 'revoke-all-mail', delegates: ['bot-a', 'bot-b', 'bot-c'] });
    const recipient = account.emails[0]!;
    await world.notify.send([{ id: 'dd', body: drawdownEvent(account.address, Date.now()) }]);
    await world.notify.drain();

    const mail = await mailTo(recipient, /Drawdown 20% reached/);
    expect(mail.body.html).toContain('Revoke all 3 API keys');
    expect(mail.body.text).toContain('Revoke all 3 API keys');
    const links = revokeAllLinks(mail);
    expect(links.html).toHaveLength(1);
    expect(links.text).toEqual(links.html);

    const page = await getPage(links.html[0]!);
    expect(titleOf(page)).toBe('Revoke all 3 API keys?');
    expect((await world.control.account(account.address)).nonce).toBe(0);
    const form = formOf(page);
    await submitForm(form.action, form.fields);
    await world.revokeAll.drain();

    const view = await world.control.account(account.address);
    expect({ nonce: view.nonce, delegates: view.delegates }).toEqual({ nonce: 3, delegates: [] });
    const intents = (await world.repos.audit.listForAccount(account.address, 100)).filter((a) => a.kind === 'intent').reverse();
    const order = [...account.delegates].map((d) => d.address).sort((x, y) => (x < y ? -1 : 1));
    expect(intents.map((i) => [i.delegate, i.nonce])).toEqual(order.map((d, i) => [d, i + 1]));
    for (const intent of intents) {
      const data = buildRemoveDelegateManager({ sender: account.address, manager: intent.delegate as `0x${string}`, nonce: intent.nonce ?? -1 });
      const bytes = Buffer.from(JSON.stringify({ sender: data.sender, instruction: data.instruction, nonce: data.nonce }), 'utf8');
      expect(verifyMessage(bytes, intent.txSignature ?? '')).toBe(account.address);
    }
    expect(titleOf(await getPage(links.html[0]!))).toBe('All API keys revoked');

    // One result email for the batch, each delegate's outcome listed once; no per-delegate result emails.
    await world.notify.drain();
    const result = await mailTo(recipient, /All 3 API keys revoked/);
    for (const [i, address] of order.entries()) {
      expect(result.body.text?.split(address).length).toBe(2);
      expect(result.body.text).toContain(`${address}: revoked (nonce ${i + 1})`);
    }
    for (const d of account.delegates) expect(result.body.html).toContain(d.name);
    expect((await sesStore({ to: recipient })).map((m) => m.subject).filter((s) => /revoked|revocation/i.test(s))).toEqual([result.subject]);
  });

  it("units the signer refuses because the link's chat channel withdrew its links meanwhile: the result email says so, per key", async () => {
    const account = await world.trackAccount({ label: 'revoke-all-mail-withdrawn', delegates: ['bot-a', 'bot-b'] });
    const recipient = account.emails[0]!;
    const order = account.delegates.map((d) => d.address).sort((x, y) => (x < y ? -1 : 1));
    await world.addChatChannel('withdrawn-room', account.address);
    const link = world.links.build({ purpose: 'revoke-all', account: account.address, channel: 'withdrawn-room' }, Date.now());
    const form = formOf(await getPage(link));
    // The page checked the channel; before the signer checks it for the first unit, the channel withdraws its links.
    world.beforeChannelCheck = async (name) => {
      world.beforeChannelCheck = null;
      expect(await world.repos.channels.revokeLinks(name, Date.now())).toEqual({ kind: 'revoked' });
    };
    try {
      await submitForm(form.action, form.fields);
      await world.revokeAll.drain();
    } finally {
      world.beforeChannelCheck = null;
    }
    expect((await world.control.account(account.address)).nonce).toBe(0);
    const batch = await world.repos.revokeAll.get(tokenIdOf(link));
    for (const delegate of order) {
      expect(batch?.units[delegate]).toMatchObject({ state: 'done', outcome: { kind: 'not-authorized', sent: false, refusal: 'links-revoked' } });
    }
    await world.notify.drain();
    const mail = await mailTo(recipient, /2 of 2 API keys not revoked/);
    for (const delegate of order) {
      expect(mail.body.text).toContain(
        `${delegate}: not sent: refused by the signing side, as the chat channel the link was posted to withdrew its links meanwhile`,
      );
    }
    // Refused keys are not offered again from the page: the email says where a new link comes from.
    for (const body of [mail.body.text ?? '', mail.body.html ?? '']) {
      const words = body.replace(/\s+/g, ' ');
      expect(words).not.toMatch(/keys for which nothing was sent can be tried again|can be tried again from the revoke-all page/);
      expect(words).toContain('2 keys cannot be tried again from this link');
      expect(words).toContain('the Revoke all button of the account on the desk page');
    }
    // The link, used and withdrawn, still says what became of each key (and offers nothing again).
    const again = await getPage(link);
    expect(again.status).toBe(200);
    expect(titleOf(again)).toBe('Some API keys were not revoked');
    expect(again.html).toContain('The links of the channel withdrawn-room were withdrawn after this message was posted.');
    for (const delegate of order) expect(again.html).toContain(delegate);
    expect(again.html).not.toContain('<form');
  });

  it('a partial failure: the result email says which key was not revoked; the retry that settles sends its own result, once', async () => {
    const account = await world.trackAccount({ label: 'revoke-all-mail-partial', delegates: ['bot-a', 'bot-b'] });
    const recipient = account.emails[0]!;
    const order = account.delegates.map((d) => d.address).sort((x, y) => (x < y ? -1 : 1));
    const link = world.revokeAllLink(account.address);
    const tokenId = tokenIdOf(link);
    const failing = revokeAllUnitId(tokenId, order[0]!);
    world.beforeTokenCheck = async (unit) => {
      if (unit === failing) await world.control.setFaults({ routes: { 'account-nonce': { error500: 1 } } });
      else await world.control.resetFaults();
    };
    try {
      const form = formOf(await getPage(link));
      await submitForm(form.action, form.fields);
      await world.revokeAll.drain();
    } finally {
      world.beforeTokenCheck = null;
      await world.control.resetFaults();
    }
    await world.notify.drain();
    const first = await mailTo(recipient, /1 of 2 API keys not revoked/);
    expect(first.body.text).toContain(`${order[0]}: not sent: the chain could not be reached`);
    expect(first.body.text).toContain(`${order[1]}: revoked (nonce 1)`);
    expect(first.body.text?.replace(/\s+/g, ' ')).toContain('One key can be tried again from the revoke-all page: nothing was sent for it');

    const retry = formOf(await getPage(link));
    expect(retry.fields['keys']).toBe(order[0]);
    await submitForm(retry.action, retry.fields);
    await world.revokeAll.drain();
    await world.notify.drain();
    const second = await mailTo(recipient, /All 2 API keys revoked/);
    expect(second.body.text).toContain(`${order[0]}: revoked (nonce 2)`);

    // A redelivered job of the settled batch names the same result: no third email.
    await world.revokeAll.send([
      {
        id: 'again',
        body: {
          kind: 'revoke-all-unit',
          account: account.address,
          delegate: order[0]!,
          tokenId,
          attempt: 2,
          expiresAt: Date.now() + 3_600_000,
          token: tokenOf(link),
        },
      },
    ]);
    await world.revokeAll.drain();
    await world.notify.drain();
    expect((await sesStore({ to: recipient })).filter((m) => /API keys (not )?revoked/.test(m.subject))).toHaveLength(2);
    expect((await world.control.account(account.address)).nonce).toBe(2);
  });

  it('a new-delegate notice carries it too, counting the delegates known at send time', async () => {
    const account = await world.trackAccount({ label: 'revoke-all-new', delegates: ['bot-a', 'intruder'] });
    const intruder = account.delegates[1]!;
    await noticeNewDelegate(world, account.address, intruder.address);
    const mail = await mailTo(account.emails[0]!, /^New API key/);
    expect(mail.body.html).toContain('Revoke all 2 API keys');
    expect(revokeAllLinks(mail).html).toHaveLength(1);
  });

  it('no revoke-all link without a signer, nor when the account has no delegate', async () => {
    const unsigned = await world.trackAccount({ label: 'revoke-all-nosigner', delegates: ['bot-a'], signer: 'none' });
    const empty = await world.trackAccount({ label: 'revoke-all-empty', delegates: [] });
    await world.notify.send([
      { id: 'a', body: drawdownEvent(unsigned.address, Date.now()) },
      { id: 'b', body: drawdownEvent(empty.address, Date.now()) },
    ]);
    await world.notify.drain();
    for (const account of [unsigned, empty]) {
      const mail = await mailTo(account.emails[0]!, /Drawdown 20% reached/);
      expect(mail.body.text).not.toContain('Revoke all');
      expect(revokeAllLinks(mail)).toEqual({ html: [], text: [] });
    }
  });
});
