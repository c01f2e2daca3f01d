import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { handlerFile, type HandlerName } from '../../functions/config/handlerCatalog';

/** The repository root: the CDK bundling input and the base of every handler entry. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Absolute path of a handler's entry file (`functions/handlers/<file>.ts`, named by `HANDLER_CATALOG`). */
export function handlerEntry(name: HandlerName, root: string = PROJECT_ROOT): string {
  return join(root, 'functions', 'handlers', `${handlerFile(name)}.ts`);
}
