import { verifyMessage } from 'ethers';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalJson } from '../../../functions/chain/canonical';
import { createLocalSigner } from '../../../functions/chain/localSigner';
import { signTransaction } from '../../../functions/chain/signTransaction';
import { buildRemoveDelegateManager } from '../../../functions/chain/transactionBuilders';

// Everything below is copied from the chain's wire-format specification, "Worked example".
const PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DELEGATE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const BYTES =
  '{"sender":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","instruction":{"RemoveDelegateManager":{"manager":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}},"nonce":7}';
const SIGNATURE = '0x11594783b70838acc4ffdee71456af98b5ea3aee5318a5136073317e68c49c892b10dc925472e3cafc9c856d1ac3f1b334e9fcae690da413e99ea49c509063921c';

describe('worked example of the wire-format page', () => {
  it('serializes byte for byte, even from lowercase input addresses', () => {
    const data = buildRemoveDelegateManager({ sender: ADDRESS.toLowerCase(), nonce: 7, manager: DELEGATE.toLowerCase() });
    expect(canonicalJson(data)).toBe(BYTES);
    expect(Buffer.from(canonicalBytes(data)).equals(Buffer.from(BYTES, 'utf8'))).toBe(true);
  });

  it('signs signature for signature, and ethers recovers the sender', async () => {
    const signer = createLocalSigner(PRIVATE_KEY);
    expect(signer.address).toBe(ADDRESS);
    const tx = await signTransaction(signer, buildRemoveDelegateManager({ sender: ADDRESS, nonce: 7, manager: DELEGATE }));
    expect(tx.signature).toBe(SIGNATURE);
    expect(tx.serializationFormat).toBe('JSON');
    expect(tx.signatureScheme).toBe('EIP191');
    expect(verifyMessage(Buffer.from(BYTES, 'utf8'), tx.signature)).toBe(ADDRESS);
  });

  it('the published signature does not verify over a non-canonical form of the same data', () => {
    const lowercase = BYTES.replace(ADDRESS, ADDRESS.toLowerCase());
    const spaced = BYTES.replace('"nonce":7', '"nonce": 7');
    expect(verifyMessage(Buffer.from(lowercase, 'utf8'), SIGNATURE)).not.toBe(ADDRESS);
    expect(verifyMessage(Buffer.from(spaced, 'utf8'), SIGNATURE)).not.toBe(ADDRESS);
  });
});
