import { createHash } from 'node:crypto';

/** One static file of the desk's client, served from memory under a name holding its content hash. */
export interface DeskAsset {
  /** The file name as served: `<entry>.<hash>.<ext>`. */
  readonly file: string;
  readonly contentType: string;
  readonly body: string;
}

/** The entries of the desk's client: the account page's charts and the passkey forms. */
export const DESK_ENTRIES = ['chart.js', 'chart.css', 'passkeys.js'] as const;
export type DeskEntry = (typeof DESK_ENTRIES)[number];

/** The desk's built client: its files by served name, and the served name of each entry. */
export interface DeskAssets {
  get(file: string): DeskAsset | undefined;
  /** The served file name of `entry` (`chart.3f9a…e1.js`), or `null` when the client was not built (the pages work without it). */
  fileOf(entry: DeskEntry): string | null;
}

/** No client: every page still shows its figures (tables and server-drawn charts). */
export const NO_DESK_ASSETS: DeskAssets = { get: () => undefined, fileOf: () => null };

/** Cache-Control of a hashed asset: its name changes with its content, so it never needs revalidating. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Readonly<Record<string, string>> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/**
 * The desk's assets from the built entries' contents: each served as `<name>.<first 12 hex of its
 * SHA-256>.<ext>`, so a changed file gets a new name and may be cached for good.
 */
export function deskAssetsOf(built: Readonly<Partial<Record<DeskEntry, string>>>): DeskAssets {
  const byFile = new Map<string, DeskAsset>();
  const byEntry = new Map<DeskEntry, string>();
  for (const entry of DESK_ENTRIES) {
    const body = built[entry];
    if (body === undefined) continue;
    const dot = entry.lastIndexOf('.');
    const ext = entry.slice(dot + 1);
    const file = `${entry.slice(0, dot)}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`;
    byFile.set(file, { file, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream', body });
    byEntry.set(entry, file);
  }
  return { get: (file) => byFile.get(file), fileOf: (entry) => byEntry.get(entry) ?? null };
}
