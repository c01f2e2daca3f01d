import * as z from 'zod';
import { ChainRequestError } from './errors';
import { INSTRUCTION_NAMES, INSTRUCTION_PAYLOADS, type InstructionName } from './instructionPayloads';
import type { TransactionData } from './ports';
import { formatPath } from './formatPath';
import { addressSchema } from '../domain/address';

const envelopeSchema = z.strictObject({
  sender: addressSchema,
  instruction: z.record(z.string(), z.unknown()),
  nonce: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

function fail(path: readonly PropertyKey[], message: string, cause?: unknown): never {
  throw new ChainRequestError(formatPath(['data', ...path]), message, cause === undefined ? {} : { cause });
}

function isInstructionName(name: string): name is InstructionName {
  return Object.hasOwn(INSTRUCTION_PAYLOADS, name);
}

/**
 * Validates a transaction `data` object and returns it in canonical form (rocket-wire-format.md,
 * "What exactly is signed"): keys `sender`, `instruction`, `nonce` in that order; the instruction's
 * payload keys in the documented order; every address EIP-55 checksummed; absent optionals `null`.
 * Accepts untrusted input (e.g. a parsed request body); throws `ChainRequestError` naming the field.
 */
export function canonicalData(data: unknown): TransactionData {
  const envelope = envelopeSchema.safeParse(data);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    fail(issue?.path ?? [], issue?.message ?? 'invalid', envelope.error);
  }
  const entries = Object.entries(envelope.data.instruction);
  const [first] = entries;
  if (entries.length !== 1 || !first) fail(['instruction'], `must have exactly one key, the instruction name; got ${entries.length}`);
  const [name, rawPayload] = first;
  if (!isInstructionName(name)) fail(['instruction', name], `unsupported instruction; supported: ${INSTRUCTION_NAMES.join(', ')}`);
  const schema = INSTRUCTION_PAYLOADS[name];
  const payload = schema.safeParse(rawPayload);
  if (!payload.success) {
    const issue = payload.error.issues[0];
    fail(['instruction', name, ...(issue?.path ?? [])], issue?.message ?? 'invalid', payload.error);
  }
  const parsed = payload.data as Record<string, unknown>;
  const ordered = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, parsed[key] ?? null]));
  return { sender: envelope.data.sender, instruction: { [name]: ordered }, nonce: envelope.data.nonce };
}

/** The exact string that is signed: compact JSON of `canonicalData(data)`. */
export function canonicalJson(data: unknown): string {
  const c = canonicalData(data);
  return JSON.stringify({ sender: c.sender, instruction: c.instruction, nonce: c.nonce });
}

/** The exact bytes that are signed: UTF-8 of `canonicalJson(data)`. */
export function canonicalBytes(data: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(data));
}
