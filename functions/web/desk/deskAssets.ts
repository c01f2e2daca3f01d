/** One static file of the desk's client, served from memory under a name holding its content hash. */
export interface DeskAsset {
  /** The file name as served: `<entry>.<hash>.<ext>`. */
  readonly file: string;
  readonly contentType: string;
  readonly body: string;
}

/** The entries of the desk's client: the account page's charts and the passkey forms. */
export type DeskEntry = 'chart.js' | 'chart.css' | 'passkeys.js';

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
