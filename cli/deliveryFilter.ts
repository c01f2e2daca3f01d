import * as z from 'zod';
import { addressSchema } from '../functions/domain/address';
import { UsageError } from './output';

/**
 * The statuses `sentinel deliveries --status` takes: a delivery record's, `missed` (a report
 * recorded as missed), or `suppressed` (a recipient left out of a mail, from the account's history).
 */
export const DELIVERY_STATUSES = ['sent', 'failed', 'in-progress', 'missed', 'suppressed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** What `sentinel deliveries` was asked for, validated. */
export interface DeliveryFilter {
  readonly sinceMs: number;
  readonly account: string | null;
  readonly recipient: string | null;
  readonly status: DeliveryStatus | null;
}

const optionsSchema = z.object({
  since: z
    .string()
    .regex(/^\d{1,4}[mhd]$/, 'give a duration such as 30m, 12h or 7d')
    .transform((v) => Number(v.slice(0, -1)) * UNIT_MS[v.slice(-1) as keyof typeof UNIT_MS])
    .refine((ms) => ms > 0 && ms <= 90 * UNIT_MS.d, 'give a duration from 1m to 90d (records are kept 90 days)'),
  account: addressSchema.optional(),
  recipient: z.email('give an email address').optional(),
  status: z.enum(DELIVERY_STATUSES, `give one of ${DELIVERY_STATUSES.join(', ')}`).optional(),
});

/** Parses the command's options; a bad one is a `UsageError` naming the option (exit 2). */
export function parseDeliveryFilter(options: { since?: string; account?: string; recipient?: string; status?: string }, now: number): DeliveryFilter {
  const parsed = optionsSchema.safeParse({ since: '1d', ...options });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option = String(issue?.path[0] ?? 'since');
    const given = (options as Record<string, string | undefined>)[option];
    throw new UsageError(`--${option} "${given ?? ''}": ${issue?.message ?? 'not valid'}`);
  }
  const { since, account, recipient, status } = parsed.data;
  return { sinceMs: now - since, account: account ?? null, recipient: recipient?.toLowerCase() ?? null, status: status ?? null };
}
