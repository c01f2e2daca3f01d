import { createRequire } from 'node:module';
import type * as ResvgModule from '@resvg/resvg-js';

let loaded: typeof ResvgModule | undefined;

/**
 * `@resvg/resvg-js`, loaded on first use rather than when the module is imported: loading the
 * native addon (with its glibc/musl probe, a full `process.report`) takes ~13 ms, which a notify
 * cold start for an email without a chart never needs. In a Lambda bundle it stays external and
 * is required from the `node_modules/` shipped next to the bundle.
 */
export function resvg(): typeof ResvgModule {
  loaded ??= createRequire(import.meta.url)('@resvg/resvg-js') as typeof ResvgModule;
  return loaded;
}
