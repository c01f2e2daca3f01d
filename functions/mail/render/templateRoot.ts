import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmailRenderError } from '../errors';

/**
 * Where the templates live: `templates/` at the project root when running from source, or
 * `templates/` next to the bundled handler (the Lambda bundle copies it there).
 */
export function defaultTemplateRoot(): string {
  const candidates = [new URL('../../../templates/', import.meta.url), new URL('./templates/', import.meta.url)];
  const found = candidates.map((u) => fileURLToPath(u)).find((dir) => existsSync(join(dir, 'emails')));
  if (!found) throw new EmailRenderError(`templates not found; looked in ${candidates.map((u) => fileURLToPath(u)).join(', ')}`);
  return found;
}
