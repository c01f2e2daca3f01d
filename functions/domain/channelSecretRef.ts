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
 * Name prefix of a stage's channel secrets in Secrets Manager, e.g. `sentinel/devnet/channels/`:
 * the channel worker's grant covers these names only.
 */
export function channelSecretPrefix(stage: string): string {
  return `sentinel/${stage}/channels/`;
}

/** A Secrets Manager secret's name: the resource part of an ARN (with its random suffix), or the name as given. */
export function secretNameOf(id: string): string {
  const at = id.startsWith('arn:') ? id.indexOf(':secret:') : -1;
  return at < 0 ? id : id.slice(at + ':secret:'.length);
}

/** Whether a Secrets Manager secret (name or ARN) is named under `prefix`, with a name of its own after it. */
export function isSecretUnder(id: string, prefix: string): boolean {
  const name = secretNameOf(id);
  return name.startsWith(prefix) && name.length > prefix.length;
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
