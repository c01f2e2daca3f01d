/** Longest delegate name kept, in characters (code points); a longer one is cut, ending in "…". */
export const MAX_DELEGATE_NAME_LENGTH = 64;

/**
 * Characters a name never keeps: controls (newlines and tabs among them), format characters (bidi
 * overrides and isolates, zero-width spaces and joiners, the BOM), private-use and unassigned code
 * points, and the line and paragraph separators.
 */
const DROPPED = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/gu;

/**
 * A delegate's name as the service keeps and shows it. Whoever signed the `DelegateManager` chose
 * it, an intruder included, so it must not be able to start a line of its own, reorder what
 * follows it, hide characters, or run on: each run of whitespace (line breaks included) becomes one
 * space, what it cannot keep is dropped, and it is cut to {@link MAX_DELEGATE_NAME_LENGTH}
 * characters. `null` when nothing is left.
 */
export function cleanDelegateName(name: string | null): string | null {
  if (name === null) return null;
  // Line breaks and other whitespace first become spaces (words stay apart), then what is left to drop goes.
  const cleaned = name.replace(/\s+/gu, ' ').replace(DROPPED, '').replace(/ {2,}/g, ' ').trim();
  if (cleaned === '') return null;
  const chars = Array.from(cleaned);
  return chars.length <= MAX_DELEGATE_NAME_LENGTH ? cleaned : `${chars.slice(0, MAX_DELEGATE_NAME_LENGTH - 1).join('')}…`;
}
