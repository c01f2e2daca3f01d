import { canonicalData, canonicalJson } from './canonical';
import { ChainRequestError, SignerError } from './errors';
import type { Signer, SignedTransaction, TransactionData } from './ports';

const SIGNATURE = /^0x[0-9a-fA-F]{128}(1b|1c|1B|1C)$/;

/**
 * Signs the canonical bytes of `data` (EIP-191) and returns the `POST /transaction` body.
 * `data.sender` must be the signer's address; the returned `data` is the canonical form that was signed.
 */
export async function signTransaction(signer: Signer, data: TransactionData): Promise<SignedTransaction> {
  const canonical = canonicalData(data);
  if (canonical.sender !== signer.address) {
    throw new ChainRequestError('data.sender', `${canonical.sender} is not the signer's address ${signer.address}`);
  }
  const signature = await signer.signMessage(new TextEncoder().encode(canonicalJson(canonical)));
  if (!SIGNATURE.test(signature)) {
    throw new SignerError('bad-signature', 'signer returned a malformed signature', { details: 'expected 0x + r‖s‖v, 65 bytes, v 27 or 28' });
  }
  return { data: canonical, serializationFormat: 'JSON', signatureScheme: 'EIP191', signature };
}
