import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { HANDLER_BUNDLE_NEEDS, PROJECT_ROOT, type HandlerName } from './handlerCatalog';
import { lambdaStubsPlugin } from './lambdaStubs';
import { projectModulesPlugin } from './projectModulesPlugin';
import { nativeBinaryDir, npmPack, type PackageFetcher } from './nativeAddon';
import { writePrecompiledTemplates } from './precompileTemplates';

/**
 * How every handler is bundled. The CDK asset and `bench/bundles.ts` both build through
 * `buildHandlerAsset` (`esbuildOptions`), so the two cannot drift.
 *
 * - ESM, minified, tree-shaken, for Node 22.
 * - Everything is bundled, the AWS SDK v3 included: the versions are the lockfile's (tested)
 *   ones rather than whatever the runtime ships, and tree-shaken ESM loads faster than the
 *   runtime's full CommonJS clients. Only native addons stay external (see `HandlerBundleNeeds`).
 * - The SDK's default credential chain is replaced by the environment credentials Lambda sets, and
 *   Handlebars goes without `source-map` (`LAMBDA_ALIASES`): the same behaviour, ~160 KB less.
 *   Modules reached by relative or dynamic imports inside packages are replaced by the esbuild
 *   plugin of `LAMBDA_STUBS` (nodemailer's MIME-type table, its URL fetcher, the SDK's event
 *   streams): ~95 KB less in the mailers, ~19 KB in the others.
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
 * - `source-map`, which Handlebars only needs for source maps of compiled templates, by nothing.
 */
export const LAMBDA_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': 'functions/runtime/lambdaCredentials.ts',
  'source-map': 'infra/bundling/withoutSourceMap.ts',
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

/** The npm package of the chart fonts, the files `functions/mail/chartFonts.ts` looks for, and their licence. */
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
  const needs = HANDLER_BUNDLE_NEEDS[name];
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
  if (HANDLER_BUNDLE_NEEDS[name].templates) writePrecompiledTemplates(join(bundleDir, 'templates'));
}

/** esbuild's options for a handler's bundle (see `buildHandlerAsset`, which every build goes through). */
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
    plugins: [lambdaStubsPlugin(root), projectModulesPlugin(root)],
    logLevel: 'silent',
    metafile: true,
  };
}
