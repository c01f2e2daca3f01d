import * as z from 'zod';
import { addressSchema } from '../domain/address';
import { timestampMsSchema } from '../domain/curvePoint';

/** Longest delegate name the chain accepts, counted in Unicode code points. */
export const MAX_DELEGATE_NAME_LENGTH = 20;

const optional = <S extends z.ZodType>(schema: S) => schema.nullish().transform((v) => v ?? null);

/** An unsigned decimal quantity written as a string: `"100"`, `"0.25"`; no sign, exponent or spaces. */
export const amountStringSchema = z.string().regex(/^\d+(\.\d+)?$/, { message: 'not an unsigned decimal string such as "100" or "0.25"' });

/**
 * Payload schema of every instruction this project signs, keys in canonical (wire) order.
 * Parsing checksums addresses and turns absent optionals into `null`; unknown keys are refused.
 */
export const INSTRUCTION_PAYLOADS = {
  RemoveDelegateManager: z.strictObject({ manager: addressSchema }),
  DelegateManager: z.strictObject({
    manager: addressSchema,
    expiryMs: optional(timestampMsSchema),
    name: optional(
      z.string().refine((s) => [...s].length <= MAX_DELEGATE_NAME_LENGTH, {
        message: `longer than ${MAX_DELEGATE_NAME_LENGTH} characters`,
      }),
    ),
    isWebClient: optional(z.boolean()),
  }),
  Mint: z.strictObject({
    to: addressSchema,
    asset_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    amount: amountStringSchema,
  }),
} as const;

/** Names of the instructions this project can serialize and sign. */
export type InstructionName = keyof typeof INSTRUCTION_PAYLOADS;
/** The supported instruction names, in declaration order. */
export const INSTRUCTION_NAMES = Object.keys(INSTRUCTION_PAYLOADS) as InstructionName[];

/** Payload of an instruction after canonicalisation (checksummed addresses, `null` optionals). */
export type InstructionPayload<N extends InstructionName> = z.output<(typeof INSTRUCTION_PAYLOADS)[N]>;
