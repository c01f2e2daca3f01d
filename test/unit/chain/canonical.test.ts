import { verifyMessage, Wallet } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalData, canonicalJson } from '../../../functions/chain/canonical';
import { ChainRequestError } from '../../../functions/chain/errors';
import { createLocalSigner } from '../../../functions/chain/localSigner';
import { signTransaction } from '../../../functions/chain/signTransaction';
import { buildDelegateManager, buildMint, buildRemoveDelegateManager } from '../../../functions/chain/transactionBuilders';
import { thrownBy } from '../../support/thrownBy';

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DELEGATE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const requestError = (run: () => unknown): ChainRequestError => thrownBy(ChainRequestError, run);

describe('canonical serialization', () => {
  it('checksums every address, including payload fields', () => {
    const json = canonicalJson(buildMint({ sender: OWNER.toLowerCase(), nonce: 1, to: OTHER.toLowerCase(), asset_id: 0, amount: '100.5' }));
    expect(json).toBe(`{"sender":"${OWNER}","instruction":{"Mint":{"to":"${OTHER}","asset_id":0,"amount":"100.5"}},"nonce":1}`);
    expect(json).not.toContain(OTHER.toLowerCase());
  });

  it('writes absent optionals as null, in the documented key order', () => {
    const json = canonicalJson(buildDelegateManager({ sender: OWNER, nonce: 3, manager: DELEGATE }));
    expect(json).toBe(
      `{"sender":"${OWNER}","instruction":{"DelegateManager":{"manager":"${DELEGATE}","expiryMs":null,"name":null,"isWebClient":null}},"nonce":3}`,
    );
  });

  it('puts keys in canonical order whatever order they arrive in', () => {
    const shuffled = {
      nonce: 9,
      instruction: { DelegateManager: { isWebClient: false, name: 'bot-1', expiryMs: 1_767_225_600_000, manager: DELEGATE.toLowerCase() } },
      sender: OWNER.toUpperCase().replace('0X', '0x'),
    };
    expect(canonicalJson(shuffled)).toBe(
      `{"sender":"${OWNER}","instruction":{"DelegateManager":{"manager":"${DELEGATE}","expiryMs":1767225600000,"name":"bot-1","isWebClient":false}},"nonce":9}`,
    );
  });

  it('is a fixed point: canonicalizing its own output changes nothing', () => {
    const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
    const delegateTx = fc.record({
      sender: address,
      nonce: fc.nat(),
      manager: address,
      expiryMs: fc.option(fc.nat(), { nil: undefined }),
      name: fc.option(fc.string({ maxLength: 20, unit: 'grapheme-ascii' }), { nil: null }),
      isWebClient: fc.option(fc.boolean(), { nil: undefined }),
    });
    fc.assert(
      fc.property(delegateTx, (input) => {
        const json = canonicalJson(buildDelegateManager(input));
        expect(canonicalJson(JSON.parse(json))).toBe(json);
        const payload = JSON.parse(json).instruction.DelegateManager as Record<string, unknown>;
        expect(Object.keys(payload)).toEqual(['manager', 'expiryMs', 'name', 'isWebClient']);
        // No whitespace between tokens (a name may hold any text, `": "` included): the compact form, token for token.
        expect(json).toBe(JSON.stringify(JSON.parse(json)));
        expect(json.replace(/"(?:[^"\\]|\\.)*"/g, '""')).not.toMatch(/\s/);
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['a name of 21 characters', { name: 'x'.repeat(21) }, 'data.instruction.DelegateManager.name'],
    ['a negative expiry', { expiryMs: -1 }, 'data.instruction.DelegateManager.expiryMs'],
    ['a fractional expiry', { expiryMs: 1.5 }, 'data.instruction.DelegateManager.expiryMs'],
    ['a short manager address', { manager: '0x1234' }, 'data.instruction.DelegateManager.manager'],
    ['a bad sender', { sender: 'alice' }, 'data.sender'],
    ['a negative nonce', { nonce: -1 }, 'data.nonce'],
  ])('DelegateManager refuses %s, naming the field', (_label, override, parameter) => {
    const input = { sender: OWNER, nonce: 1, manager: DELEGATE, ...override };
    expect(requestError(() => buildDelegateManager(input)).parameter).toBe(parameter);
  });

  it('counts name length in characters, not bytes', () => {
    const name = '🚀'.repeat(20);
    expect(JSON.parse(canonicalJson(buildDelegateManager({ sender: OWNER, nonce: 1, manager: DELEGATE, name }))).instruction.DelegateManager.name).toBe(name);
  });

  it.each([
    ['a negative amount', { amount: '-1' }, 'data.instruction.Mint.amount'],
    ['an exponent amount', { amount: '1e3' }, 'data.instruction.Mint.amount'],
    ['a fractional asset id', { asset_id: 1.5 }, 'data.instruction.Mint.asset_id'],
    ['a lowercase-invalid recipient', { to: '0xzz' }, 'data.instruction.Mint.to'],
  ])('Mint refuses %s', (_label, override, parameter) => {
    const input = { sender: OWNER, nonce: 1, to: OTHER, asset_id: 2, amount: '10', ...override };
    expect(requestError(() => buildMint(input)).parameter).toBe(parameter);
  });

  it('refuses unknown instructions, several instructions and unknown payload keys', () => {
    const base = { sender: OWNER, nonce: 1 };
    expect(requestError(() => canonicalData({ ...base, instruction: { Withdraw: { amount: '1' } } })).parameter).toBe('data.instruction.Withdraw');
    expect(
      requestError(() =>
        canonicalData({ ...base, instruction: { RemoveDelegateManager: { manager: DELEGATE }, Mint: { to: OTHER, asset_id: 0, amount: '1' } } }),
      ).parameter,
    ).toBe('data.instruction');
    expect(requestError(() => canonicalData({ ...base, instruction: { RemoveDelegateManager: { manager: DELEGATE, extra: 1 } } })).message).toMatch(/extra/);
  });

  it('signs only for the sender, and every builder signature verifies with ethers', async () => {
    const owner = Wallet.createRandom();
    const signer = createLocalSigner(owner.privateKey);
    expect(signer.address).toBe(owner.address);
    const txs = [
      buildRemoveDelegateManager({ sender: owner.address.toLowerCase(), nonce: 1, manager: DELEGATE }),
      buildDelegateManager({ sender: owner.address, nonce: 2, manager: DELEGATE, expiryMs: 1_800_000_000_000, name: 'bot-1', isWebClient: false }),
      buildMint({ sender: owner.address, nonce: 3, to: OTHER, asset_id: 1, amount: '250.75' }),
    ];
    for (const data of txs) {
      const signed = await signTransaction(signer, data);
      expect(verifyMessage(Buffer.from(canonicalJson(signed.data), 'utf8'), signed.signature)).toBe(owner.address);
    }
    const notMine = buildRemoveDelegateManager({ sender: OTHER, nonce: 1, manager: DELEGATE });
    await expect(signTransaction(signer, notMine)).rejects.toMatchObject({ name: 'ChainRequestError', parameter: 'data.sender' });
  });
});
