import type { Address, Hex } from 'viem';
import type { AccountNonce, Delegate, PortfolioResponse } from './schemas';
import type { Interval } from '../domain/interval';

/** Query of `GET /portfolio`; `from`/`to` are inclusive ms, 0 meaning "all history" / "latest". */
export interface PortfolioQuery {
  account: string;
  from: number;
  to: number;
  interval: Interval;
}

/** The `data` object of a transaction: the bytes that are signed are its canonical JSON. */
export interface TransactionData {
  sender: Address;
  instruction: Record<string, Record<string, unknown>>;
  nonce: number;
}

/** Request body of `POST /transaction`. */
export interface SignedTransaction {
  data: TransactionData;
  serializationFormat: 'JSON';
  signatureScheme: 'EIP191';
  signature: Hex;
}

/** An accepted transaction: the instruction-specific result, e.g. `{ RemoveDelegateManager: { delegator, manager } }`. */
export type TransactionResult = { kind: 'tagged'; tag: string; value: unknown } | { kind: 'string'; value: string };

/** Everything the service reads from or sends to the chain. Rejections throw `ChainRejectedError`. */
export interface ChainClient {
  getPortfolio(query: PortfolioQuery, options?: { signal?: AbortSignal }): Promise<PortfolioResponse>;
  getAccountNonce(account: string): Promise<AccountNonce>;
  getDelegateTraders(account: string): Promise<Delegate[]>;
  submitTransaction(tx: SignedTransaction): Promise<TransactionResult>;
}

/** Something that can sign EIP-191 personal messages for one address. */
export interface Signer {
  readonly address: Address;
  /** Signs `"\x19Ethereum Signed Message:\n" + len + bytes`; returns `0x` + r‖s‖v (65 bytes, v 27/28). */
  signMessage(bytes: Uint8Array): Promise<Hex>;
}
