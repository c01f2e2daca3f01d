import * as z from 'zod';

/** Where a channel's secret lives: an environment variable (local), or AWS Secrets Manager (name or ARN). */
export type ChannelSecretRef = { kind: 'env'; variable: string } | { kind: 'secret'; id: string };

const ENV = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME = /^[A-Za-z0-9/_+=.@-]{1,512}$/;
const ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]{1,512}$/;

/** Parses `env:<VARIABLE>` or `secret:<name or ARN>`; `null` when it is neither. */
export function parseChannelSecretRef(ref: string): ChannelSecretRef | null {
  const sep = ref.indexOf(':');
  if (sep < 0) return null;
  const [scheme, rest] = [ref.slice(0, sep), ref.slice(sep + 1)];
  if (scheme === 'env' && ENV.test(rest)) return { kind: 'env', variable: rest };
  if (scheme === 'secret' && (ARN.test(rest) || (NAME.test(rest) && !rest.startsWith('arn:')))) return { kind: 'secret', id: rest };
  return null;
}

/**
 * A channel secret reference as text, validated and trimmed. The message never repeats the
 * input: someone may have pasted the secret itself.
 */
export const channelSecretRefSchema = z
  .string()
  .trim()
  .refine((s) => parseChannelSecretRef(s) !== null, {
    error: 'is not a secret reference: use env:<VARIABLE_NAME> or secret:<Secrets Manager name or ARN> (never the secret itself)',
  });
