import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { HANDLER_CATALOG, type HandlerName } from '../../functions/config/handlerCatalog';
import { BUNDLE_SETTINGS, bundleCopies, esbuildOptions, writeGeneratedFiles, type BundleArch } from './bundleSettings';
import { PROJECT_ROOT, handlerEntry } from './handlerEntry';
import { buildDeskClient, DESK_ASSETS_BUNDLE_DIR, writeDeskClient } from './deskClient';

/** What `buildHandlerAsset` wrote. */
export interface HandlerAsset {
  /** The bundle, `<outDir>/index.mjs`. */
  readonly file: string;
  readonly metafile: Metafile;
}

/**
 * What goes into a handler's asset besides the bundle: the copies of `bundleCopies` (templates,
 * fonts, the native addon for `arch`), the generated files, and the desk's browser client. The CDK asset runs this after
 * esbuild (`assetExtrasMain.ts`), and so does `buildHandlerAsset`.
 */
export function addAssetExtras(name: HandlerName, arch: BundleArch, outDir: string, root: string = PROJECT_ROOT): void {
  for (const { from, to } of bundleCopies(name, arch, root)) {
    mkdirSync(dirname(join(outDir, to)), { recursive: true });
    cpSync(resolve(root, from), join(outDir, to), { recursive: true, dereference: true });
  }
  writeGeneratedFiles(name, outDir);
  if (HANDLER_CATALOG[name].bundle.deskClient) writeDeskClient(join(outDir, DESK_ASSETS_BUNDLE_DIR), buildDeskClient(root));
}

/**
 * Builds one handler's Lambda asset into `outDir` (emptied first) as the CDK asset is built (the
 * stack test checks they are equal): the esbuild bundle with the shared settings, then
 * `addAssetExtras`. `bench/bundles.ts` and the bundle tests build with this.
 */
export async function buildHandlerAsset(name: HandlerName, arch: BundleArch, outDir: string, root: string = PROJECT_ROOT): Promise<HandlerAsset> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build(esbuildOptions(handlerEntry(name, root), outDir, HANDLER_CATALOG[name].bundle.nativeModules, root));
  addAssetExtras(name, arch, outDir, root);
  return { file: join(outDir, BUNDLE_SETTINGS.outFile), metafile: result.metafile ?? { inputs: {}, outputs: {} } };
}
