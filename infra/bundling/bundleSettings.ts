import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LogLevel, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { HANDLER_CATALOG, type HandlerName } from '../../functions/config/handlerCatalog';
import { PROJECT_ROOT } from './handlerEntry';
import { nativeBinaryDir, npmPack, type PackageFetcher } from './nativeAddon';
import { writePrecompiledTemplates } from './precompileTemplates';

/**
 * How every handler is bundled: plain esbuild settings, the same for the CDK asset (aws-cdk-lib's
 * `NodejsFunction`, `nodejsBundling`) and for the benchmark and tests (`esbuildOptions`); the
 * stack test checks the two outputs are byte for byte equal.
 *
 * - ESM, minified, tree-shaken, for Node 22.
 * - Everything is bundled, the AWS SDK v3 included: the versions are the lockfile's (tested)
 *   ones rather than whatever the runtime ships. Only native addons stay external (see the
 *   handler catalog's `bundle.nativeModules`).
 * - A few packages are aliased to smaller modules (`LAMBDA_ALIASES`). Nothing inside a dependency
 *   is rewritten.
 * - The project's own modules are declared free of import-time side effects by
 *   `functions/package.json` (`"sideEffects": false`), so a module whose exports a handler never
 *   uses adds nothing to its bundle (the bundle tests check each holds only its repositories).
 * - CommonJS dependencies that `require()` Node built-ins need a real `require` in an ES module:
 *   the banner makes one with `createRequire`.
 * - Source maps without sources (small), used at runtime through `--enable-source-maps`.
 */
export const BUNDLE_SETTINGS = {
  target: 'node22',
  platform: 'node',
  format: 'esm',
  minify: true,
  treeShaking: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  banner: "import { createRequire as __sentinelCreateRequire } from 'node:module'; const require = __sentinelCreateRequire(import.meta.url);",
  /** File name of the bundle inside the asset (the Lambda handler is `index.handler`). */
  outFile: 'index.mjs',
} as const;

/**
 * Packages replaced in every bundle, by a module of this project (path from the project root):
 * - `@aws-sdk/credential-provider-node` (the default credential chain, with the STS and SSO
 *   clients of its other links) by a provider reading only the environment, where Lambda puts the
 *   function's credentials;
 * - `mnemonist/lru-cache`, the DynamoDB client's endpoint cache, by a `Map` with the same methods
 *   (`lruCacheStandIn.ts`, checked call for call against mnemonist's).
 */
export const LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': 'functions/runtime/lambdaCredentials.ts',
  'mnemonist/lru-cache': 'infra/bundling/lruCacheStandIn.ts',
};

function aliases(root: string): Record<string, string> {
  return Object.fromEntries(Object.entries(LAMBDA_ALIASES).map(([pkg, file]) => [pkg, join(root, file)]));
}

/** Lambda architectures, named the way Node's `process.arch` and npm binary packages name them. */
export type BundleArch = 'arm64' | 'x64';

/** A file or directory to copy into the bundle directory: from (absolute, or relative to the project root) to (relative to the bundle). */
export interface BundleCopy {
  readonly from: string;
  readonly to: string;
}

/** npm package holding a napi-rs addon's prebuilt binary for Lambda (Linux, glibc). */
export function nativeBinaryPackage(moduleName: string, arch: BundleArch): string {
  return `${moduleName}-linux-${arch}-gnu`;
}

/** The npm package of the chart fonts, the files `functions/mail/chart/chartFonts.ts` looks for, and their licence. */
export const CHART_FONTS = {
  packageName: 'dejavu-fonts-ttf',
  files: ['ttf/DejaVuSans.ttf', 'ttf/DejaVuSans-Bold.ttf', 'LICENSE'],
} as const;

/** `fonts/DejaVuSans.ttf`...: where a chart font file lands in the bundle directory. */
function fontTarget(file: string): string {
  return file === 'LICENSE' ? 'fonts/LICENSE-DejaVu' : `fonts/${file.slice(file.lastIndexOf('/') + 1)}`;
}

/**
 * What goes next to a handler's bundle: `templates/` and the chart fonts in `fonts/` for email
 * renderers, and each native module with its binary package for `arch` in `node_modules/` (the
 * installed one, or the lockfile's version fetched by `nativeBinaryDir`, so any build host can
 * build either architecture). Throws when a package is not installed, naming the command.
 */
export function bundleCopies(name: HandlerName, arch: BundleArch, root: string = PROJECT_ROOT, fetch: PackageFetcher = npmPack): BundleCopy[] {
  const needs = HANDLER_CATALOG[name].bundle;
  const copies: BundleCopy[] = needs.templates ? [{ from: 'templates', to: 'templates' }] : [];
  if (needs.fonts) {
    const dir = join('node_modules', CHART_FONTS.packageName);
    if (!existsSync(join(root, dir))) throw new Error(`${name}: ${CHART_FONTS.packageName} (the chart fonts) is not installed; run npm ci`);
    copies.push(...CHART_FONTS.files.map((file) => ({ from: join(dir, file), to: fontTarget(file) })));
  }
  for (const moduleName of needs.nativeModules) {
    const from = join('node_modules', moduleName);
    if (!existsSync(join(root, from))) throw new Error(`${name}: ${moduleName} is not installed; run npm ci`);
    copies.push({ from, to: from });
    const binary = nativeBinaryPackage(moduleName, arch);
    copies.push({ from: nativeBinaryDir(binary, root, fetch), to: join('node_modules', binary) });
  }
  return copies;
}

/**
 * After the copies: the mailers' `templates/` get `precompiled.mjs`, so the bundled renderer needs
 * only the Handlebars runtime (`loadPrecompiledTemplates`).
 */
export function writeGeneratedFiles(name: HandlerName, bundleDir: string): void {
  if (HANDLER_CATALOG[name].bundle.templates) writePrecompiledTemplates(join(bundleDir, 'templates'));
}

/** esbuild's options for a handler's bundle, as the benchmark and the tests build it (`buildHandlerAsset`). */
export function esbuildOptions(entry: string, outdir: string, external: readonly string[], root: string = PROJECT_ROOT): BuildOptions {
  return {
    entryPoints: [entry],
    outfile: join(outdir, BUNDLE_SETTINGS.outFile),
    bundle: true,
    write: true,
    target: BUNDLE_SETTINGS.target,
    platform: BUNDLE_SETTINGS.platform,
    format: BUNDLE_SETTINGS.format,
    minify: BUNDLE_SETTINGS.minify,
    treeShaking: BUNDLE_SETTINGS.treeShaking,
    sourcemap: BUNDLE_SETTINGS.sourcemap,
    sourcesContent: BUNDLE_SETTINGS.sourcesContent,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    external: [...external],
    alias: aliases(root),
    absWorkingDir: root,
    logLevel: 'silent',
    metafile: true,
  };
}

/** The script the asset's `afterBundling` hook runs (from the project root): `bundleCopies` and `writeGeneratedFiles`. */
export const ASSET_EXTRAS_SCRIPT = 'infra/bundling/assetExtrasMain.ts';

/**
 * `NodejsFunction`'s bundling of a handler: the same esbuild settings as `esbuildOptions`, run by
 * the local esbuild (no Docker: the construct uses the installed esbuild when there is one), then,
 * for a handler that ships anything next to its bundle, `ASSET_EXTRAS_SCRIPT` in the output directory.
 */
export function nodejsBundling(name: HandlerName, arch: BundleArch, root: string = PROJECT_ROOT): BundlingOptions {
  const nodeTsx = (args: readonly string[]): string => [process.execPath, '--import', 'tsx', ...args].map((arg) => JSON.stringify(arg)).join(' ');
  const { templates, fonts, nativeModules, deskClient } = HANDLER_CATALOG[name].bundle;
  const hasExtras = templates || fonts || nativeModules.length > 0 || deskClient;
  return {
    target: BUNDLE_SETTINGS.target,
    format: OutputFormat.ESM,
    minify: BUNDLE_SETTINGS.minify,
    sourceMap: BUNDLE_SETTINGS.sourcemap,
    sourcesContent: BUNDLE_SETTINGS.sourcesContent,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: BUNDLE_SETTINGS.banner,
    externalModules: [...nativeModules],
    logLevel: LogLevel.ERROR,
    esbuildArgs: { '--alias': Object.entries(aliases(root)).map(([pkg, file]) => `${pkg}=${file}`), '--tree-shaking': 'true' },
    forceDockerBundling: false,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (_inputDir, outputDir) => (hasExtras ? [`cd ${JSON.stringify(root)} && ${nodeTsx([ASSET_EXTRAS_SCRIPT, name, arch, outputDir])}`] : []),
    },
  };
}
