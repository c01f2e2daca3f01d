import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DESK_ENTRIES, deskAssetsOf, type DeskAssets, type DeskEntry } from './deskAssets';

/**
 * The desk's client as built next to a bundle (`DESK_ASSETS_DIR`): one file per entry, named as
 * the entry (`chart.js`, `chart.css`, `passkeys.js`). An entry whose file is missing is not served
 * (its page works without it).
 */
export function readDeskAssets(dir: string): DeskAssets {
  const built: Partial<Record<DeskEntry, string>> = {};
  for (const entry of DESK_ENTRIES) {
    const path = join(dir, entry);
    if (existsSync(path)) built[entry] = readFileSync(path, 'utf8');
  }
  return deskAssetsOf(built);
}
