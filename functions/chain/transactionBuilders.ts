import { canonicalData } from './canonical';
import type { TransactionData } from './ports';

/** Who signs and with which nonce (must exceed the account's current `nonce`). */
export interface TransactionEnvelope {
  sender: string;
  nonce: number;
}

/** `RemoveDelegateManager`: the owner revokes `manager`. Validated and canonical; throws `ChainRequestError`. */
export function buildRemoveDelegateManager(input: TransactionEnvelope & { manager: string }): TransactionData {
  return canonicalData({ sender: input.sender, instruction: { RemoveDelegateManager: { manager: input.manager } }, nonce: input.nonce });
}

/** `DelegateManager`: the owner authorizes `manager`, optionally with an expiry (ms), a name (<= 20 characters) and the web-client flag. */
export function buildDelegateManager(
  input: TransactionEnvelope & {
    manager: string;
    expiryMs?: number | null | undefined;
    name?: string | null | undefined;
    isWebClient?: boolean | null | undefined;
  },
): TransactionData {
  const payload = {
    manager: input.manager,
    expiryMs: input.expiryMs ?? null,
    name: input.name ?? null,
    isWebClient: input.isWebClient ?? null,
  };
  return canonicalData({ sender: input.sender, instruction: { DelegateManager: payload }, nonce: input.nonce });
}

/** `Mint`: credits `amount` (unsigned decimal string) of asset `asset_id` to `to`. */
export function buildMint(input: TransactionEnvelope & { to: string; asset_id: number; amount: string }): TransactionData {
  const payload = { to: input.to, asset_id: input.asset_id, amount: input.amount };
  return canonicalData({ sender: input.sender, instruction: { Mint: payload }, nonce: input.nonce });
}
