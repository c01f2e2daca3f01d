import type { Wallet } from 'ethers';
import { getAddress } from 'viem';

/**
 * The test suite's own canonical form of transaction `data`, written out by hand from the
 * wire-format page (not the simulator's code): compact, keys sender/instruction/nonce,
 * EIP-55 addresses, payload keys in documented order, null for absent optionals.
 */
export function canonicalData(sender: string, instruction: string, payload: string, nonce: number): string {
  return `{"sender":"${getAddress(sender)}","instruction":{"${instruction}":${payload}},"nonce":${nonce}}`;
}

export function removeDelegatePayload(manager: string): string {
  return `{"manager":"${getAddress(manager)}"}`;
}

export function delegatePayload(manager: string, expiryMs: number | null, name: string | null, isWebClient: boolean | null): string {
  return `{"manager":"${getAddress(manager)}","expiryMs":${JSON.stringify(expiryMs)},"name":${JSON.stringify(name)},"isWebClient":${JSON.stringify(isWebClient)}}`;
}

export function mintPayload(to: string, assetId: number, amount: string): string {
  return `{"to":"${getAddress(to)}","asset_id":${assetId},"amount":"${amount}"}`;
}

/** The simulator's documented PlaceOrder layout: trader, instrument, side, price, quantity. */
export function placeOrderPayload(trader: string | null, side: 'Buy' | 'Sell' = 'Buy'): string {
  return `{"trader":${trader === null ? 'null' : `"${getAddress(trader)}"`},"instrument":1,"side":"${side}","price":"100.5","quantity":"2"}`;
}

/**
 * A `POST /transaction` body whose signature (by `wallet`, EIP-191 via ethers) covers exactly
 * `signedText`; `data` defaults to that text parsed, as a client would send what it signed.
 */
export async function signedBody(wallet: Wallet, signedText: string, data: unknown = JSON.parse(signedText)): Promise<Record<string, unknown>> {
  return {
    data,
    serializationFormat: 'JSON',
    signatureScheme: 'EIP191',
    signature: await wallet.signMessage(signedText),
  };
}

/** The worked example of rocket-wire-format.md. */
export const WORKED_EXAMPLE = {
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  delegate: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  nonce: 7,
  bytes:
    '{"sender":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","instruction":{"RemoveDelegateManager":{"manager":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}},"nonce":7}',
  signature: '0x11594783b70838acc4ffdee71456af98b5ea3aee5318a5136073317e68c49c892b10dc925472e3cafc9c856d1ac3f1b334e9fcae690da413e99ea49c509063921c',
} as const;
