import type { Address } from '../functions/domain/address';
import { syncRecipients } from './recipientSync';
import { mapConcurrent } from '../functions/shared/concurrency';
import type { CliContext } from './cliRuntime';
import { addressRows, checkColumns, planImport, readIgnoreColumns, withoutColumns } from './importPlan';
import { ImportFileError, parseImport, type ImportRowError } from './importRows';
import { plural, printJson, UsageError } from './output';
import { readTextFile } from './readTextFile';
import { armedNote, armKnownKeys } from './armKnownKeys';
import { brokenChannelNote } from './brokenChannelNote';
import { accountsWithNewChannels, applyChannelAssignments, channelChanges, readChannelCells } from './importChannels';

/** The result of an import, as `--json` prints it. */
export interface ImportResult {
  created: string[];
  updated: string[];
  unchanged: string[];
  errors: ImportRowError[];
  /** Columns left out: named in `--ignore-columns`, or close to no known name. */
  ignoredColumns: string[];
  /** The imported accounts (new, updated or unchanged) that have no signer: no one-click revocation. */
  withoutSigner: string[];
}

/** A row's error when another writer removed its account while the import ran. */
const removedWhileImporting = (address: string): string => `address: ${address} was removed while importing; import it again to add it`;

/** The items that pass `test`, then the others. */
function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

/** The options of `accounts import`. */
export interface ImportOptions {
  json?: boolean;
  ignoreColumns?: string;
}

/**
 * `accounts import <file>`: a problem with the file as a whole (unreadable, empty, no header, a
 * misspelt or repeated column) fails before anything is written; columns in `--ignore-columns`
 * and columns close to no known name are left out (the latter with a warning naming them); row
 * errors are reported by line and the valid rows imported. Exit 1 when any row was rejected.
 */
export async function runImport(file: string, options: ImportOptions, context: CliContext): Promise<void> {
  const { io } = context;
  const ignore = options.ignoreColumns === undefined ? { kind: 'ok' as const, columns: [] } : readIgnoreColumns(options.ignoreColumns);
  if (ignore.kind === 'invalid') throw new UsageError(`--ignore-columns: ${ignore.reason}`);
  const text = await readTextFile(file);
  let parsed;
  let columns;
  try {
    parsed = parseImport(text);
    columns = checkColumns(parsed.columns, parsed.format, ignore.columns);
  } catch (error) {
    if (error instanceof ImportFileError) throw new Error(`${file}:${error.line}: ${error.message}; nothing imported`, { cause: error });
    throw error;
  }
  const total = parsed.rows.length + parsed.errors.length;
  if (total === 0) throw new Error(`${file}: the file has a header row but no accounts; nothing imported`);

  const left = [...columns.ignored, ...columns.unknown];
  if (columns.unknown.length > 0) {
    const names = columns.unknown.map((c) => JSON.stringify(c)).join(', ');
    io.err(
      `warning: ${file}: ignored ${columns.unknown.length === 1 ? 'column' : 'columns'} ${names}: close to no known column (to say so and silence this: --ignore-columns ${columns.unknown.join(',')})\n`,
    );
  }
  const addressed = addressRows(parsed.rows.map((row) => withoutColumns(row, left)));
  const rt = await context.runtime();
  // The channels column, checked whole before any write: an unknown channel stops the import.
  const channels = columns.channels ? await rt.repos.channels.list() : [];
  const assigned = columns.channels
    ? readChannelCells(addressed.rows, columns.channels, new Map(channels.map((c) => [c.name, c])), file)
    : new Map<Address, string[]>();
  const settingRows = columns.channels ? addressed.rows.map((r) => ({ ...r, row: withoutColumns(r.row, [columns.channels!.name]) })) : addressed.rows;
  const existing = new Map((await rt.repos.accounts.getMany(settingRows.map((r) => r.address))).map((a) => [a.address, a]));
  const plan = planImport(settingRows, existing, rt.now());
  const errors = [...parsed.errors, ...addressed.errors, ...plan.errors];
  const rejectedLines = new Set(plan.errors.map((e) => e.line));
  const assignments = new Map([...assigned].filter(([address]) => !rejectedLines.has(settingRows.find((r) => r.address === address)?.row.line ?? -1)));
  channelChanges(channels, assignments);

  const outcome = await rt.repos.accounts.importMany(plan.creates, { existing: 'leave' });
  // Added by another writer since the read: planned again as an update of the columns its row names.
  const added = new Set(outcome.existed);
  if (added.size > 0) {
    const readBack = await rt.repos.accounts.getMany([...added]);
    for (const account of readBack) existing.set(account.address, account);
    const [stayed, gone] = partition(
      settingRows.filter((r) => added.has(r.address)),
      (r) => readBack.some((a) => a.address === r.address),
    );
    // Added and removed again by other writers between the write and this read: not imported.
    for (const { address, row } of gone) errors.push({ line: row.line, message: removedWhileImporting(address) });
    const again = planImport(stayed, existing, rt.now());
    plan.updates.push(...again.updates);
    plan.unchanged.push(...again.unchanged);
    errors.push(...again.errors);
  }
  const updated: string[] = [];
  const created = new Set(outcome.created);
  const signers = new Map<string, string | null>(
    [...existing.values(), ...plan.creates.filter((a) => created.has(a.address))].map((a) => [a.address, a.signer]),
  );
  // Accounts whose --revoke-unknown this import turns on: their known keys are taken once written.
  const arming = plan.creates.filter((a) => created.has(a.address) && a.revokeUnknown !== 'off').map((a) => a.address);
  await mapConcurrent(
    plan.creates.filter((a) => created.has(a.address)),
    16,
    (account) => syncRecipients(rt, account.address, [], account.emails),
  );
  await mapConcurrent(plan.updates, 16, async ({ address, line, patch }) => {
    const result = await rt.repos.accounts.updateSettings(address, patch);
    if (result.kind === 'updated') {
      updated.push(address);
      signers.set(address, result.account.signer);
      await syncRecipients(rt, address, existing.get(address)?.emails ?? [], result.account.emails);
      if (existing.get(address)?.revokeUnknown === 'off' && result.account.revokeUnknown !== 'off') arming.push(address);
    } else errors.push({ line, message: removedWhileImporting(address) });
  });
  const armed = await mapConcurrent(arming, 8, async (address) => ({ address, outcome: await armKnownKeys(rt, address) }));
  const written = new Set<string>([...outcome.created, ...updated, ...plan.unchanged]);
  const routed = new Map([...assignments].filter(([address]) => written.has(address)));
  // An account whose row changes only its channels counts as updated.
  const rerouted = new Set(accountsWithNewChannels(channels, routed).filter((a) => plan.unchanged.includes(a)));
  await applyChannelAssignments(rt, routed);
  errors.sort((a, b) => a.line - b.line);
  const importedAddresses = [...outcome.created, ...updated, ...plan.unchanged];
  const result: ImportResult = {
    created: outcome.created,
    updated: [...updated, ...rerouted].sort(),
    unchanged: plan.unchanged.filter((a) => !rerouted.has(a)).sort(),
    errors,
    ignoredColumns: left,
    withoutSigner: importedAddresses.filter((address) => (signers.get(address) ?? null) === null).sort(),
  };
  const imported = importedAddresses.length;

  const named = new Set([...routed.values()].flat());
  for (const channel of channels) if (named.has(channel.name)) io.err(brokenChannelNote(channel) ?? '');
  if (options.json) printJson(io, result);
  else {
    for (const e of errors) io.err(`${file}:${e.line}: ${e.message}\n`);
    if (imported > 0) {
      io.out(
        `imported ${plural(imported, 'account')} (${result.created.length} new, ${result.updated.length} updated, ${result.unchanged.length} unchanged)\n`,
      );
    }
    for (const { address, outcome: taken } of armed) if (taken.kind === 'pending') io.err(armedNote(address, taken));
    const unsigned = result.withoutSigner.length;
    if (unsigned > 0) {
      io.err(
        `note: ${unsigned} of the ${plural(imported, 'imported account')} ${unsigned === 1 ? 'has' : 'have'} no signer, so ${unsigned === 1 ? 'its' : 'their'} alerts carry no one-click revocation link\n`,
      );
    }
  }
  if (errors.length > 0) {
    const rejected = `${errors.length} of ${plural(total, 'row')} rejected`;
    throw new Error(
      imported > 0
        ? `${rejected} (see above); the other ${plural(imported, 'row')} ${imported === 1 ? 'was' : 'were'} imported`
        : `${rejected}; no account imported`,
    );
  }
}
