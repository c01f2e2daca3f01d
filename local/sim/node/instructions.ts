import { getAddress } from 'ethers';
import * as z from 'zod';

/** A hex address in any case; parsed to its EIP-55 checksummed form. */
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte hex address')
  .transform((s) => getAddress(s.toLowerCase()));
const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a non-negative decimal string');
const u64 = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const optional = <T extends z.ZodType>(schema: T) =>
  schema
    .nullable()
    .optional()
    .transform((v) => v ?? null);

/**
 * Payload layouts of the instructions the simulator executes. The key order of each object is
 * the canonical order of the signed JSON; unknown keys are dropped (as a node that parses into a
 * struct would), so signing them makes the signature fail. `PlaceOrder`'s layout is not
 * published: this one is the simulator's own.
 */
export const INSTRUCTION_PAYLOADS = {
  RemoveDelegateManager: z.object({ manager: address }),
  DelegateManager: z.object({
    manager: address,
    expiryMs: optional(u64),
    name: optional(z.string().max(20, 'name is at most 20 characters')),
    isWebClient: optional(z.boolean()),
  }),
  Mint: z.object({ to: address, asset_id: u64, amount: decimal }),
  PlaceOrder: z.object({
    trader: optional(address),
    instrument: u64,
    side: z.enum(['Buy', 'Sell']),
    price: decimal,
    quantity: decimal,
  }),
} as const;

export type InstructionName = keyof typeof INSTRUCTION_PAYLOADS;
export type InstructionPayload<N extends InstructionName> = z.output<(typeof INSTRUCTION_PAYLOADS)[N]>;

/** A parsed instruction: its name and its payload with every optional field present. */
export type Instruction = { [N in InstructionName]: { name: N; payload: InstructionPayload<N> } }[InstructionName];

/** Payload keys in canonical order. */
export const PAYLOAD_KEYS: { readonly [N in InstructionName]: readonly (keyof InstructionPayload<N>)[] } = {
  RemoveDelegateManager: ['manager'],
  DelegateManager: ['manager', 'expiryMs', 'name', 'isWebClient'],
  Mint: ['to', 'asset_id', 'amount'],
  PlaceOrder: ['trader', 'instrument', 'side', 'price', 'quantity'],
};

export function isInstructionName(name: string): name is InstructionName {
  return Object.hasOwn(INSTRUCTION_PAYLOADS, name);
}
