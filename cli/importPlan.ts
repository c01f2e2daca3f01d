import { addressSchema, type Address } from '../functions/domain/address';
import {
  accountSettingsPatchSchema,
  accountSettingsSchema,
  columnOf,
  describeSettingsError,
  settingFieldOf,
  SETTING_FIELDS,
  type AccountSettingsPatch,
  type TrackedAccount,
} from '../functions/domain/account';
import { applySettingsPatch, newTrackedAccount } from '../functions/domain/trackedAccount';
import type { AccountPatch } from '../functions/store/accountItem';
import { CHANNELS_COLUMN, type ChannelsColumn } from './importChannels';
import { ImportFileError, type ImportColumn, type ImportRow, type ImportRowError } from './importRows';
import { readAddress } from './readAddress';

/** A row whose address was read: the checksummed address and the row. */
export interface AddressedRow {
  readonly address: Address;
  readonly row: ImportRow;
}

/** What an import writes: new accounts whole, existing ones only the settings their rows name. */
export interface ImportPlan {
  readonly creates: TrackedAccount[];
  readonly updates: { readonly address: Address; readonly line: number; readonly patch: AccountPatch }[];
  /** Existing accounts whose rows change nothing. */
  readonly unchanged: Address[];
  readonly errors: ImportRowError[];
}

/**
 * Checks the file's columns and says which to ignore. Each column must name a setting
 * (`address`, `email`, `report-at`, ... or the field names) or be `channels`, once, and `address` must be among
 * them; a column named in `ignore` (compared case-insensitively; never `address`) is ignored;
 * so is one close to no known name (a spreadsheet's `Notes`, `Owner`), which the caller warns
 * about. A name close to a known one (`drawdwn`) is refused: dropping it would silently lose the
 * setting it was meant to be. Throws `ImportFileError` for a column refused.
 */
export function checkColumns(columns: readonly ImportColumn[], format: 'csv' | 'jsonl', ignore: readonly string[] = []): ColumnCheck {
  if (format === 'csv' && columns.some((c) => addressSchema.safeParse(c.name).success || c.name.includes('@'))) {
    throw new ImportFileError(columns[0]?.line ?? 1, 'no header row: the first line holds data; start the file with the column names (address,email,...)');
  }
  const ignored = new Set(ignore.map(columnKey));
  const check: ColumnCheck = { ignored: [], unknown: [], channels: null };
  const seen = new Map<string, ImportColumn>();
  columns.forEach((column, i) => {
    const where = format === 'csv' ? ` (column ${i + 1})` : '';
    if (ignored.has(columnKey(column.name))) {
      check.ignored.push(column.name);
      return;
    }
    if (columnKey(column.name) === CHANNELS_COLUMN) {
      if (check.channels && format === 'csv')
        throw new ImportFileError(column.line, `column ${JSON.stringify(column.name)}${where} names ${CHANNELS_COLUMN} a second time`);
      check.channels = { name: column.name, position: format === 'csv' ? i + 1 : null };
      return;
    }
    const field = settingFieldOf(column.name);
    if (field === null) {
      const hint = closestColumn(column.name);
      if (hint === null) {
        check.unknown.push(column.name);
        return;
      }
      throw new ImportFileError(
        column.line,
        `unknown column ${JSON.stringify(column.name)}${where}; did you mean "${hint}"? (columns: ${knownColumns().join(',')}; --ignore-columns ${JSON.stringify(column.name)} skips it)`,
      );
    }
    const before = seen.get(field);
    if (before && format === 'csv')
      throw new ImportFileError(column.line, `column ${JSON.stringify(column.name)}${where} names ${columnOf(field)} a second time`);
    seen.set(field, column);
  });
  if (format === 'csv' && !seen.has('address')) throw new ImportFileError(columns[0]?.line ?? 1, 'the header row has no "address" column');
  return check;
}

/** The columns an import leaves out: those named in `--ignore-columns`, and those close to no known name (warned about). */
export interface ColumnCheck {
  readonly ignored: string[];
  readonly unknown: string[];
  /** The `channels` column, when the file has one. */
  channels: ChannelsColumn | null;
}

/**
 * Reads `--ignore-columns` (`notes,owner`): column names, compared case-insensitively. Naming
 * `address` is refused: every row needs it.
 */
export function readIgnoreColumns(value: string): { kind: 'ok'; columns: string[] } | { kind: 'invalid'; reason: string } {
  const columns = value
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (columns.length === 0) return { kind: 'invalid', reason: `"${value}" names no column` };
  if (columns.some((c) => settingFieldOf(c) === 'address')) return { kind: 'invalid', reason: 'the address column cannot be ignored: every row needs it' };
  return { kind: 'ok', columns };
}

/** `row` without the values of `columns` (names as the file writes them). */
export function withoutColumns(row: ImportRow, columns: readonly string[]): ImportRow {
  if (columns.length === 0) return row;
  const dropped = new Set(columns);
  return { line: row.line, values: Object.fromEntries(Object.entries(row.values).filter(([name]) => !dropped.has(name))) };
}

function columnKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Reads each row's address; rows without a valid one, and every row of an address that appears
 * more than once, are errors (which of the rows was meant is not for the import to guess).
 */
export function addressRows(rows: readonly ImportRow[]): { rows: AddressedRow[]; errors: ImportRowError[] } {
  const errors: ImportRowError[] = [];
  const byAddress = new Map<Address, AddressedRow[]>();
  for (const row of rows) {
    const raw = row.values['address'] ?? row.values['Address'] ?? null;
    if (raw === null) {
      errors.push({ line: row.line, message: 'address: is required' });
      continue;
    }
    const read = readAddress(raw.trim());
    if (read.kind === 'invalid') {
      errors.push({ line: row.line, message: `address: ${read.reason}` });
      continue;
    }
    byAddress.set(read.address, [...(byAddress.get(read.address) ?? []), { address: read.address, row }]);
  }
  const valid: AddressedRow[] = [];
  for (const [address, list] of byAddress) {
    if (list.length === 1) valid.push(...list);
    else {
      const lines = list.map((r) => r.row.line).join(', ');
      for (const r of list) errors.push({ line: r.row.line, message: `address: ${address} appears on lines ${lines}; none of them was imported` });
    }
  }
  return { rows: valid, errors };
}

/**
 * Plans the writes. A new account takes the row's settings and the defaults for the rest. An
 * existing account changes only the settings whose columns the row has (an empty `label` or
 * `signer` cell removes it; other empty cells leave the setting as it is); a new report time or
 * zone reschedules its next report.
 */
export function planImport(rows: readonly AddressedRow[], existing: ReadonlyMap<string, TrackedAccount>, now: number): ImportPlan {
  const plan: { creates: TrackedAccount[]; updates: ImportPlan['updates'][number][]; unchanged: Address[]; errors: ImportRowError[] } = {
    creates: [],
    updates: [],
    unchanged: [],
    errors: [],
  };
  for (const { address, row } of rows) {
    const current = existing.get(address);
    if (!current) {
      const settings = accountSettingsSchema.safeParse({ ...row.values, address });
      if (settings.success) plan.creates.push(newTrackedAccount(settings.data, now));
      else plan.errors.push({ line: row.line, message: oneLine(describeSettingsError(settings.error)) });
      continue;
    }
    const values = Object.fromEntries(Object.entries(row.values).filter(([k]) => settingFieldOf(k) !== 'address'));
    const patch = accountSettingsPatchSchema.safeParse(values);
    if (!patch.success) {
      plan.errors.push({ line: row.line, message: oneLine(describeSettingsError(patch.error)) });
      continue;
    }
    const changes = changedFields(current, applySettingsPatch(current, patch.data as AccountSettingsPatch, now));
    if (Object.keys(changes).length === 0) plan.unchanged.push(address);
    else plan.updates.push({ address, line: row.line, patch: changes });
  }
  return plan;
}

/** The settings and schedule times that differ between two versions of an account. */
export function changedFields(before: TrackedAccount, after: TrackedAccount): AccountPatch {
  const fields = [...SETTING_FIELDS.filter((f) => f !== 'address'), 'nextDueAt', 'nextReportAt'] as const;
  const patch: Record<string, unknown> = {};
  for (const field of fields) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) patch[field] = after[field];
  }
  return patch as AccountPatch;
}

function oneLine(text: string): string {
  return text.replace(/\n/g, '; ');
}

function closestColumn(name: string): string | null {
  const target = name.trim().toLowerCase();
  let best: { column: string; distance: number } | null = null;
  for (const column of knownColumns()) {
    const distance = editDistance(target, column);
    if (distance <= Math.max(2, Math.floor(column.length / 3)) && (!best || distance < best.distance)) best = { column, distance };
  }
  return best?.column ?? null;
}

function knownColumns(): string[] {
  return [...SETTING_FIELDS.map(columnOf), CHANNELS_COLUMN];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}
