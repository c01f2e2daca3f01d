import type { CliRuntime } from './cliRuntime';

/**
 * Keeps the recipient records' account sets in step with an account whose addresses changed
 * (`before` empty for a new account, `after` empty for a removed one).
 */
export async function syncRecipients(rt: Pick<CliRuntime, 'repos'>, address: string, before: readonly string[], after: readonly string[]): Promise<void> {
  const had = new Set(before.map((e) => e.trim().toLowerCase()));
  const has = new Set(after.map((e) => e.trim().toLowerCase()));
  await rt.repos.recipients.syncAccount(
    address,
    [...has].filter((e) => !had.has(e)),
    [...had].filter((e) => !has.has(e)),
  );
}
