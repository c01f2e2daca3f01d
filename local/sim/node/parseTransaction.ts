import { getAddress } from 'ethers';
import * as z from 'zod';
import { INSTRUCTION_PAYLOADS, PAYLOAD_KEYS, isInstructionName, type Instruction } from './instructions';

/** A transaction as the node understands it, with the exact bytes its signature must cover. */
export interface ParsedTransaction {
  sender: string;
  nonce: number;
  instruction: Instruction;
  signature: string;
  /** Canonical JSON of `data`: compact; keys sender, instruction, nonce; checksummed addresses. */
  canonical: string;
}

export type TransactionParse = { ok: true; tx: ParsedTransaction } | { ok: false; error: string };

const envelopeSchema = z.object({
  data: z.object({
    sender: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte hex address'),
    instruction: z.record(z.string(), z.unknown()),
    nonce: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  }),
  serializationFormat: z.literal('JSON', { error: 'only the JSON serialization format is supported' }),
  signatureScheme: z.literal('EIP191', { error: 'only the EIP191 signature scheme is supported' }),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'expected 0x followed by 65 bytes of hex'),
});

/**
 * Parses a transaction body the way the node does: into typed fields, then serialized again in
 * canonical form. What the client signed is never used; only the re-serialized bytes are.
 */
export function parseTransaction(body: unknown): TransactionParse {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { ok: false, error: `invalid transaction: ${describe(envelope.error)}` };
  const { data, signature } = envelope.data;
  const names = Object.keys(data.instruction);
  if (names.length !== 1) return { ok: false, error: `invalid transaction: data.instruction must have exactly one key, got ${names.length}` };
  const name = names[0] ?? '';
  if (!isInstructionName(name)) return { ok: false, error: `unsupported instruction "${name.slice(0, 40)}"` };
  const payload = INSTRUCTION_PAYLOADS[name].safeParse(data.instruction[name]);
  if (!payload.success) return { ok: false, error: `invalid ${name} payload: ${describe(payload.error)}` };
  const instruction = { name, payload: payload.data } as Instruction;
  const sender = getAddress(data.sender.toLowerCase());
  const canonical = `{"sender":${JSON.stringify(sender)},"instruction":{${JSON.stringify(name)}:${canonicalPayload(instruction)}},"nonce":${data.nonce}}`;
  return { ok: true, tx: { sender, nonce: data.nonce, instruction, signature, canonical } };
}

function canonicalPayload(instruction: Instruction): string {
  const payload = instruction.payload as Record<string, unknown>;
  const keys = PAYLOAD_KEYS[instruction.name] as readonly string[];
  return `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(payload[key] ?? null)}`).join(',')}}`;
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`;
}
