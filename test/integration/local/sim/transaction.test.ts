import { Wallet } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  canonicalData,
  delegatePayload,
  mintPayload,
  placeOrderPayload,
  removeDelegatePayload,
  signedBody,
  WORKED_EXAMPLE,
} from '../../../support/sim/signing';
import { postJson, request, T0, testSimPerFile } from '../../../support/sim/testSim';

const sim = testSimPerFile();

const wallet = (n: number): Wallet => new Wallet(`0x${(n + 0x1000).toString(16).padStart(64, '0')}`);
const submit = (body: unknown) => postJson(`${sim.nodeUrl}/transaction`, body);
const delegatesOf = async (account: string) =>
  ((await request(`${sim.nodeUrl}/delegate-traders?account=${account}`)).json as { delegates: { address: string }[] }).delegates;
const nonceOf = async (account: string) => ((await request(`${sim.nodeUrl}/account-nonce?account=${account}`)).json as { nonce: number }).nonce;

/** Asserts a documented rejection: `{"Err": string}` with the configured status (400 by default). */
function expectRejected(reply: { status: number; json: unknown }, pattern: RegExp): void {
  expect(reply.status).toBe(400);
  expect(reply.json).toEqual({ Err: expect.stringMatching(pattern) });
}

describe('reads of an account never seen', () => {
  it('starts at nonce 0 with no delegates', async () => {
    const fresh = wallet(1).address;
    expect((await request(`${sim.nodeUrl}/account-nonce?account=${fresh}`)).json).toEqual({ nonce: 0, deferredNonce: 0 });
    expect((await request(`${sim.nodeUrl}/delegate-traders?account=${fresh.toLowerCase()}`)).json).toEqual({ delegates: [] });
  });

  it('refuses a missing or malformed account with 400 text/plain', async () => {
    for (const query of ['', '?account=0x123', '?account=nothex']) {
      const reply = await request(`${sim.nodeUrl}/account-nonce${query}`);
      expect(reply.status).toBe(400);
      expect(reply.contentType).toMatch(/^text\/plain/);
      expect(reply.text).toMatch(/account/);
    }
  });
});

describe('the worked example of the wire-format page', () => {
  it('is the test suite own canonical form and signature', async () => {
    const owner = new Wallet(WORKED_EXAMPLE.privateKey);
    const text = canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(WORKED_EXAMPLE.delegate.toLowerCase()), 7);
    expect(text).toBe(WORKED_EXAMPLE.bytes);
    expect(await owner.signMessage(text)).toBe(WORKED_EXAMPLE.signature);
  });

  it('is accepted when the account nonce is below 7, and the delegate is gone', async () => {
    await sim.control.addDelegate(WORKED_EXAMPLE.address, { address: WORKED_EXAMPLE.delegate, name: 'bot' });
    expect((await delegatesOf(WORKED_EXAMPLE.address)).map((d) => d.address)).toEqual([WORKED_EXAMPLE.delegate]);
    expect(await nonceOf(WORKED_EXAMPLE.address)).toBeLessThan(7);

    const reply = await submit({
      data: JSON.parse(WORKED_EXAMPLE.bytes),
      serializationFormat: 'JSON',
      signatureScheme: 'EIP191',
      signature: WORKED_EXAMPLE.signature,
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ RemoveDelegateManager: { delegator: WORKED_EXAMPLE.address, manager: WORKED_EXAMPLE.delegate } });
    expect(await delegatesOf(WORKED_EXAMPLE.address)).toEqual([]);
    expect(await nonceOf(WORKED_EXAMPLE.address)).toBe(7);
  });

  it('is then a stale nonce', async () => {
    await sim.control.addDelegate(WORKED_EXAMPLE.address, { address: WORKED_EXAMPLE.delegate });
    const reply = await submit({
      data: JSON.parse(WORKED_EXAMPLE.bytes),
      serializationFormat: 'JSON',
      signatureScheme: 'EIP191',
      signature: WORKED_EXAMPLE.signature,
    });
    expectRejected(reply, /stale nonce 7.*greater than 7/);
    expect(await delegatesOf(WORKED_EXAMPLE.address)).toHaveLength(1);
  });
});

describe('signature checks over the canonical form', () => {
  const owner = wallet(10);
  const manager = wallet(11).address;
  const expiry = T0 + 86_400_000;

  it('accepts a canonical DelegateManager and lists the delegate with its fields', async () => {
    const text = canonicalData(owner.address, 'DelegateManager', delegatePayload(manager, expiry, 'bot-1', false), 1);
    const reply = await submit(await signedBody(owner, text));
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ DelegateManager: { delegator: owner.address, manager } });
    expect(await delegatesOf(owner.address)).toEqual([{ address: manager, expiryMs: expiry, name: 'bot-1', isWebClient: false }]);
  });

  const variants: [string, (nonce: number) => string, unknown?][] = [
    [
      'lowercase addresses',
      (n) => canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(manager), n).replace(/0x[0-9a-fA-F]{40}/g, (a) => a.toLowerCase()),
    ],
    [
      'lowercase manager only',
      (n) => `{"sender":"${owner.address}","instruction":{"RemoveDelegateManager":{"manager":"${manager.toLowerCase()}"}},"nonce":${n}}`,
    ],
    ['reordered top-level keys', (n) => `{"nonce":${n},"sender":"${owner.address}","instruction":{"RemoveDelegateManager":{"manager":"${manager}"}}}`],
    ['spaces', (n) => JSON.stringify(JSON.parse(canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(manager), n)), null, 1)],
    [
      'reordered payload keys',
      (n) => canonicalData(owner.address, 'DelegateManager', `{"name":null,"manager":"${manager}","expiryMs":${expiry},"isWebClient":null}`, n),
    ],
    ['a missing null', (n) => canonicalData(owner.address, 'DelegateManager', `{"manager":"${manager}","expiryMs":${expiry},"name":null}`, n)],
    ['all optionals left out', (n) => canonicalData(owner.address, 'DelegateManager', `{"manager":"${manager}"}`, n)],
  ];

  for (const [name, signed] of variants) {
    it(`rejects a signature over ${name}`, async () => {
      const before = await delegatesOf(owner.address);
      const nonce = (await nonceOf(owner.address)) + 1;
      const reply = await submit(await signedBody(owner, signed(nonce)));
      expectRejected(reply, /signature does not match sender/);
      expect(await delegatesOf(owner.address)).toEqual(before);
      expect(await nonceOf(owner.address)).toBe(nonce - 1);
    });
  }

  it('rejects a signature by another key', async () => {
    const text = canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(manager), 50);
    const reply = await submit(await signedBody(wallet(12), text));
    expectRejected(reply, /signature does not match sender/);
  });

  it('rejects a corrupted signature and a bad v', async () => {
    const text = canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(manager), 50);
    const body = await signedBody(owner, text);
    const signature = body.signature as string;
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'a' ? 'b' : 'a'}${signature.slice(11)}`;
    expectRejected(await submit({ ...body, signature: flipped }), /signature/);
    expectRejected(await submit({ ...body, signature: `${signature.slice(0, -2)}00` }), /v must be 27 or 28/);
    expectRejected(await submit({ ...body, signature: '0x1234' }), /signature/);
    expect(await delegatesOf(owner.address)).toHaveLength(1);
  });

  it('rejects an unknown scheme, format or instruction', async () => {
    const text = canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(manager), 50);
    const body = await signedBody(owner, text);
    expectRejected(await submit({ ...body, signatureScheme: 'EIP712' }), /EIP191/);
    expectRejected(await submit({ ...body, serializationFormat: 'MessagePack' }), /JSON/);
    expectRejected(await submit({ ...body, data: { ...(body.data as object), instruction: { Teleport: {} } } }), /unsupported instruction/);
  });

  it('rejects a stale nonce (equal or lower) with a valid signature', async () => {
    const current = await nonceOf(owner.address);
    for (const nonce of [current, current - 1]) {
      const text = canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(manager), nonce);
      expectRejected(await submit(await signedBody(owner, text)), /stale nonce/);
    }
    expect(await delegatesOf(owner.address)).toHaveLength(1);
  });

  it('answers a body that is not JSON with 400 text/plain', async () => {
    const reply = await request(`${sim.nodeUrl}/transaction`, { method: 'POST', body: '{"data":', headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(400);
    expect(reply.contentType).toMatch(/^text\/plain/);
  });
});

describe('delegation', () => {
  const owner = wallet(20);
  const bot = wallet(21);
  const stranger = wallet(22);

  beforeAll(async () => {
    await sim.control.addDelegate(owner.address, { address: bot.address, name: 'bot', expiresInMs: 3_600_000 });
  });

  it('refuses removal signed by anyone but the owner', async () => {
    for (const signer of [bot, stranger]) {
      const text = canonicalData(signer.address, 'RemoveDelegateManager', removeDelegatePayload(bot.address), 1);
      expectRejected(await submit(await signedBody(signer, text)), /not a delegate of .*only the owner/);
    }
    // A delegate cannot add delegates for its owner either: the payload has no account field.
    const add = canonicalData(bot.address, 'DelegateManager', delegatePayload(stranger.address, null, null, null), 2);
    expect((await submit(await signedBody(bot, add))).status).toBe(200);
    expect((await delegatesOf(owner.address)).map((d) => d.address)).toEqual([bot.address]);
  });

  it('lets an active delegate trade for the owner, with the PlaceOrder result shape', async () => {
    const nonce = (await nonceOf(bot.address)) + 1;
    const reply = await submit(await signedBody(bot, canonicalData(bot.address, 'PlaceOrder', placeOrderPayload(owner.address), nonce)));
    expect(reply.status).toBe(200);
    const results = (reply.json as { PlaceOrder: { results: { Success: Record<string, unknown> }[] } }).PlaceOrder.results;
    expect(results).toHaveLength(1);
    const success = results[0]?.Success;
    expect(success).toMatchObject({ account: owner.address, instrument: 1, orderIx: 0 });
    expect(success?.eventData).toMatchObject({ fill: { is_filled: true, timestamp: sim.simulator.clock.now() } });
  });

  it('refuses a stranger trading for the owner', async () => {
    const text = canonicalData(stranger.address, 'PlaceOrder', placeOrderPayload(owner.address), 1);
    expectRejected(await submit(await signedBody(stranger, text)), /is not a delegate of/);
  });

  it('refuses an expired delegate', async () => {
    await sim.control.advanceClock(3_600_000);
    const nonce = (await nonceOf(bot.address)) + 1;
    const text = canonicalData(bot.address, 'PlaceOrder', placeOrderPayload(owner.address), nonce);
    expectRejected(await submit(await signedBody(bot, text)), /expired/);
    expect(await nonceOf(bot.address)).toBe(nonce - 1);
  });

  it('removes a delegate on a canonical RemoveDelegateManager by the owner', async () => {
    const text = canonicalData(owner.address, 'RemoveDelegateManager', removeDelegatePayload(bot.address), 1);
    const reply = await submit(await signedBody(owner, text));
    expect(reply.json).toEqual({ RemoveDelegateManager: { delegator: owner.address, manager: bot.address } });
    expect(await delegatesOf(owner.address)).toEqual([]);
  });

  it('refuses a delegate expiry in the past and self-delegation', async () => {
    const past = canonicalData(owner.address, 'DelegateManager', delegatePayload(bot.address, T0, null, null), 2);
    expectRejected(await submit(await signedBody(owner, past)), /not in the future/);
    const self = canonicalData(owner.address, 'DelegateManager', delegatePayload(owner.address, null, null, null), 2);
    expectRejected(await submit(await signedBody(owner, self)), /own delegate/);
  });
});

describe('Mint', () => {
  it('credits equity as a deposit: equity moves, PnL does not', async () => {
    const minter = wallet(30);
    const account = await sim.control.createAccount({
      label: 'mint-target',
      profile: { annualVolatility: 0, annualDrift: 0, tradesPerDay: 0, hourlyFundingRate: 0 },
    });
    const before = await sim.control.account(account.address);
    const reply = await submit(await signedBody(minter, canonicalData(minter.address, 'Mint', mintPayload(account.address, 0, '1500.25'), 1)));
    expect(reply.status).toBe(200);
    expect(reply.json).toBe('Ok');
    await sim.control.advanceClock(60_000);
    const after = await sim.control.account(account.address);
    expect(after.equity - before.equity).toBeCloseTo(1500.25, 2);
    expect(after.pnl).toBe(before.pnl);
  });
});

describe('rejection status and batches', () => {
  it('can answer rejections with 200 and an Err body', async () => {
    await sim.control.setRejectionStatus(200);
    try {
      const signer = wallet(40);
      const reply = await submit(
        await signedBody(signer, canonicalData(signer.address, 'RemoveDelegateManager', removeDelegatePayload(wallet(41).address), 0)),
      );
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ Err: expect.stringMatching(/stale nonce 0/) });
    } finally {
      await sim.control.setRejectionStatus(400);
    }
  });

  it('executes a batch in order and answers a string', async () => {
    const owner = wallet(50);
    const a = wallet(51).address;
    const b = wallet(52).address;
    const batch = [
      await signedBody(owner, canonicalData(owner.address, 'DelegateManager', delegatePayload(a, null, 'a', null), 1)),
      await signedBody(owner, canonicalData(owner.address, 'DelegateManager', delegatePayload(b, null, 'b', true), 2)),
    ];
    const reply = await postJson(`${sim.nodeUrl}/batch_transactions`, batch);
    expect(reply.status).toBe(200);
    expect(typeof reply.json).toBe('string');
    expect((await delegatesOf(owner.address)).map((d) => d.address).sort()).toEqual([a, b].sort());
  });

  it('stops a batch at the first rejection, keeping what came before', async () => {
    const owner = wallet(60);
    const a = wallet(61).address;
    const batch = [
      await signedBody(owner, canonicalData(owner.address, 'DelegateManager', delegatePayload(a, null, null, null), 1)),
      await signedBody(owner, canonicalData(owner.address, 'DelegateManager', delegatePayload(wallet(62).address, null, null, null), 1)),
    ];
    const reply = await postJson(`${sim.nodeUrl}/batch_transactions`, batch);
    expectRejected(reply, /transaction 1: stale nonce/);
    expect((await delegatesOf(owner.address)).map((d) => d.address)).toEqual([a]);
    expectRejected(await postJson(`${sim.nodeUrl}/batch_transactions`, { not: 'an array' }), /array/);
  });
});
