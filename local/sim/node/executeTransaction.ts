import type { Instruction, InstructionPayload } from './instructions';
import type { NodeLedger } from './ledger';
import { parseTransaction, type ParsedTransaction } from './parseTransaction';
import { placeOrderResult } from './placeOrderResult';
import { verifySignature } from './verifySignature';

/** Accepted (with the instruction's result body) or rejected (with the `Err` message). */
export type TransactionOutcome = { ok: true; result: unknown } | { ok: false; error: string };

/** What executing a transaction may touch. */
export interface ExecutionContext {
  ledger: NodeLedger;
  nowMs: number;
  /** Credits `amount` to `to` (a deposit). */
  mint(to: string, amount: number): void;
  nextOrderId(): number;
}

/**
 * Validates and executes one transaction body like the node: parse and re-serialize, verify the
 * EIP-191 signature over the canonical bytes against `sender`, require a nonce above the
 * sender's, check permissions, apply. A rejected transaction changes nothing, its nonce included.
 */
export function executeTransaction(body: unknown, ctx: ExecutionContext): TransactionOutcome {
  const parsed = parseTransaction(body);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const { tx } = parsed;
  const signature = verifySignature(tx.canonical, tx.signature, tx.sender);
  if (!signature.ok) return signature;
  const current = ctx.ledger.nonces(tx.sender).nonce;
  if (tx.nonce <= current) return { ok: false, error: `stale nonce ${tx.nonce} for ${tx.sender}: it must be greater than ${current}` };
  const outcome = apply(tx, tx.instruction, ctx);
  if (outcome.ok) ctx.ledger.setNonce(tx.sender, tx.nonce);
  return outcome;
}

function apply(tx: ParsedTransaction, instruction: Instruction, ctx: ExecutionContext): TransactionOutcome {
  switch (instruction.name) {
    case 'DelegateManager':
      return delegateManager(tx.sender, instruction.payload, ctx);
    case 'RemoveDelegateManager': {
      const { manager } = instruction.payload;
      if (!ctx.ledger.removeDelegate(tx.sender, manager)) {
        return { ok: false, error: `${manager} is not a delegate of ${tx.sender}; only the owner account can remove its delegates` };
      }
      return { ok: true, result: { RemoveDelegateManager: { delegator: tx.sender, manager } } };
    }
    case 'Mint': {
      const amount = Number(instruction.payload.amount);
      if (!(amount > 0)) return { ok: false, error: 'Mint amount must be greater than 0' };
      ctx.mint(instruction.payload.to, amount);
      return { ok: true, result: 'Ok' };
    }
    case 'PlaceOrder': {
      const trader = instruction.payload.trader ?? tx.sender;
      if (trader !== tx.sender) {
        const status = ctx.ledger.delegateStatus(trader, tx.sender, ctx.nowMs);
        if (status === 'none') return { ok: false, error: `${tx.sender} is not a delegate of ${trader}` };
        if (status === 'expired') return { ok: false, error: `delegate ${tx.sender} of ${trader} has expired` };
      }
      return { ok: true, result: placeOrderResult(trader, instruction.payload, ctx.nextOrderId(), ctx.nowMs) };
    }
  }
}

function delegateManager(owner: string, payload: InstructionPayload<'DelegateManager'>, ctx: ExecutionContext): TransactionOutcome {
  if (payload.manager === owner) return { ok: false, error: 'an account cannot be its own delegate' };
  if (payload.expiryMs !== null && payload.expiryMs <= ctx.nowMs) {
    return { ok: false, error: `expiryMs ${payload.expiryMs} is not in the future` };
  }
  ctx.ledger.putDelegate(owner, {
    address: payload.manager,
    expiryMs: payload.expiryMs,
    name: payload.name,
    isWebClient: payload.isWebClient ?? false,
  });
  return { ok: true, result: { DelegateManager: { delegator: owner, manager: payload.manager } } };
}
