import { syncRecipients } from './recipientSync';
import { mapConcurrent } from '../functions/store/concurrency';
import type { CliContext } from './cliRuntime';
import { addressRows, checkColumns, planImport } from './importPlan';
import { ImportFileError, parseImport, type ImportRowError } from './importRows';
import { plural, printJson } from './output';
import { readTextFile } from './readTextFile';

/** The result of an import, as `--json` prints it. */
export interface ImportResult {
  created: string[];
  updated: string[];
  unchanged: string[];
  errors: ImportRowError[];
}

/**
 * `accounts import <file>`: a problem with the file as a whole (unreadable, empty, no header, an
 * unknown or repeated column) fails before anything is written; row errors are reported by line
 * and the valid rows imported. Exit 1 when any row was rejected.
 */
export async function runImport(file: string, options: { json?: boolean }, context: CliContext): Promise<void> {
  const { io } = context;
  const text = await readTextFile(file);
  let parsed;
  try {
    parsed = parseImport(text);
    checkColumns(parsed.columns, parsed.format);
  } catch (error) {
    if (error instanceof ImportFileError) throw new Error(`${file}:${error.line}: ${error.message}; nothing imported`, { cause: error });
    throw error;
  }
  const total = parsed.rows.length + parsed.errors.length;
  if (total === 0) throw new Error(`${file}: the file has a header row but no accounts; nothing imported`);

  const addressed = addressRows(parsed.rows);
  const rt = await context.runtime();
  const existing = new Map((await rt.repos.accounts.getMany(addressed.rows.map((r) => r.address))).map((a) => [a.address, a]));
  const plan = planImport(addressed.rows, existing, rt.now());
  const errors = [...parsed.errors, ...addressed.errors, ...plan.errors];

  const outcome = await rt.repos.accounts.importMany(plan.creates);
  const updated: string[] = [...outcome.updated];
  await mapConcurrent(plan.creates, 16, (account) => syncRecipients(rt, account.address, [], account.emails));
  await mapConcurrent(plan.updates, 16, async ({ address, line, patch }) => {
    const result = await rt.repos.accounts.updateSettings(address, patch);
    if (result.kind === 'updated') {
      updated.push(address);
      await syncRecipients(rt, address, existing.get(address)?.emails ?? [], result.account.emails);
    } else errors.push({ line, message: `address: ${address} was removed while importing; import it again to add it` });
  });
  errors.sort((a, b) => a.line - b.line);
  const result: ImportResult = { created: outcome.created, updated: updated.sort(), unchanged: [...plan.unchanged].sort(), errors };
  const imported = result.created.length + result.updated.length + result.unchanged.length;

  if (options.json) printJson(io, result);
  else {
    for (const e of errors) io.err(`${file}:${e.line}: ${e.message}\n`);
    if (imported > 0) {
      io.out(
        `imported ${plural(imported, 'account')} (${result.created.length} new, ${result.updated.length} updated, ${result.unchanged.length} unchanged)\n`,
      );
    }
  }
  if (errors.length > 0) {
    const rejected = `${errors.length} of ${plural(total, 'row')} rejected`;
    throw new Error(imported > 0 ? `${rejected} (see above); the other ${plural(imported, 'row')} ${imported === 1 ? 'was' : 'were'} imported` : `${rejected}; no account imported`);
  }
}
