import * as z from 'zod';
import { WIN_RATE_FORMATS } from './portfolio/winRateFormat';

const finite = z.number().finite();
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

const modelEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('flow'), minute: z.number().int(), amount: finite }),
  z.object({ kind: z.literal('shock'), minute: z.number().int(), pct: finite }),
  z.object({ kind: z.literal('drift'), startMinute: z.number().int(), endMinute: z.number().int(), totalPct: finite }),
]);

const paramsSchema = z.object({
  hash: z.number().int(),
  capital: finite,
  muPerMinute: finite,
  sigmaPerMinute: finite,
  tradesPerHour: finite,
  leverage: finite,
  fundingMean: finite,
  fundingVolatility: finite,
  initialSide: z.union([z.literal(1), z.literal(-1)]),
});

const delegateSchema = z.object({ address, expiryMs: z.number().int().nullable(), name: z.string().nullable(), isWebClient: z.boolean() });

/**
 * Everything a simulator needs to go on where it stopped: its settings, clock, counters, every
 * account model (parameters, scripted events, bad prints) and the node ledger (nonces,
 * delegates). Histories are not kept: they are generated again from the parameters, identically.
 * The fault profile is not part of it (a test's setting, not chain state).
 */
export const savedSimStateSchema = z.object({
  version: z.literal(1),
  seed: z.number().int().nonnegative(),
  nowMs: z.number().int(),
  historyDays: z.number().int().nonnegative(),
  unknownAccounts: z.enum(['generate', 'empty']),
  rejectionStatus: z.number().int(),
  winRateFormat: z.enum(WIN_RATE_FORMATS),
  firstGeneratedDay: z.number().int(),
  counters: z.object({ accounts: z.number().int(), delegates: z.number().int(), orders: z.number().int() }),
  created: z.array(address),
  models: z.array(
    z.object({
      address,
      firstDay: z.number().int(),
      params: paramsSchema,
      events: z.array(modelEventSchema),
      prints: z.array(z.tuple([z.number().int(), finite])),
    }),
  ),
  ledger: z.array(z.object({ address, nonce: z.number().int(), deferredNonce: z.number().int(), delegates: z.array(delegateSchema) })),
});
export type SavedSimState = z.infer<typeof savedSimStateSchema>;
