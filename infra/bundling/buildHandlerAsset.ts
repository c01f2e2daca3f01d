import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_SETTINGS, bundleCopies, esbuildOptions, writeGeneratedFiles, type BundleArch } from './bundleSettings';
import { HANDLER_BUNDLE_NEEDS, PROJECT_ROOT, handlerEntry, type HandlerName } from './handlerCatalog';

/** What `buildHandlerAsset` wrote. */
export interface HandlerAsset {
  /** The bundle, `<outDir>/index.mjs`. */
  readonly file: string;
  readonly metafile: Metafile;
}

/**
 * Builds one handler's Lambda asset into `outDir` (emptied first): the esbuild bundle with the
 * shared settings and the stubs of `LAMBDA_STUBS`, then what `bundleCopies` lists (templates, fonts,
 * the native addon for `arch`) and the generated files. The CDK asset (through
 * `buildHandlerAssetMain.ts`), `bench/bundles.ts` and the bundle tests all build with this.
 */
export async function buildHandlerAsset(name: HandlerName, arch: BundleArch, outDir: string, root: string = PROJECT_ROOT): Promise<HandlerAsset> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const copies = bundleCopies(name, arch, root);
  const result = await build(esbuildOptions(handlerEntry(name, root), outDir, HANDLER_BUNDLE_NEEDS[name].nativeModules, root));
  for (const { from, to } of copies) {
    mkdirSync(dirname(join(outDir, to)), { recursive: true });
    cpSync(resolve(root, from), join(outDir, to), { recursive: true, dereference: true });
  }
  writeGeneratedFiles(name, outDir);
  return { file: join(outDir, BUNDLE_SETTINGS.outFile), metafile: result.metafile ?? { inputs: {}, outputs: {} } };
}
