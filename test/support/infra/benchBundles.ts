import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { HANDLER_CATALOG, type HandlerName } from '../../../functions/config/handlerCatalog';
import { BUNDLE_SETTINGS, esbuildOptions } from '../../../infra/bundling/bundleSettings';
import { PROJECT_ROOT, handlerEntry } from '../../../infra/bundling/handlerEntry';
import { BUNDLE_CACHE_DIR, bundleSourceFingerprint } from './bundleCache';

/** A handler's bundle as the benchmark builds it (`esbuildOptions`): its code and esbuild's metafile. */
export interface BenchBundle {
  readonly code: string;
  readonly metafile: Metafile;
}

/**
 * Builds a handler's bundle with the benchmark's esbuild settings, or takes it from the test bundle
 * cache when one was built from the same sources (`bundleSourceFingerprint`) and options: the stack
 * test (parity with the CDK asset) and the bundle contents test need the same 13 builds.
 */
export async function benchBundle(name: HandlerName, cacheDir: string = BUNDLE_CACHE_DIR): Promise<BenchBundle> {
  const options = (outdir: string) => esbuildOptions(handlerEntry(name), outdir, HANDLER_CATALOG[name].bundle.nativeModules);
  const key = createHash('sha256')
    .update(`${bundleSourceFingerprint(PROJECT_ROOT)}\0${JSON.stringify(options('<out>'))}`)
    .digest('hex');
  const entry = join(cacheDir, `bench-${key}`);
  if (!existsSync(entry)) {
    mkdirSync(cacheDir, { recursive: true });
    const staging = mkdtempSync(`${entry}.`);
    try {
      const result = await build(options(join(staging, 'out')));
      writeFileSync(join(staging, 'code.mjs'), readFileSync(join(staging, 'out', BUNDLE_SETTINGS.outFile)));
      writeFileSync(join(staging, 'metafile.json'), JSON.stringify(result.metafile ?? { inputs: {}, outputs: {} }));
      rmSync(join(staging, 'out'), { recursive: true, force: true });
      // Another process may have stored the same entry meanwhile: its build is the same.
      if (!existsSync(entry)) renameSync(staging, entry);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return { code: readFileSync(join(entry, 'code.mjs'), 'utf8'), metafile: JSON.parse(readFileSync(join(entry, 'metafile.json'), 'utf8')) as Metafile };
}
