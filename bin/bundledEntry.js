// @ts-check
/**
 * Runs a TypeScript entry of the project (`cli/main.ts`, `local/start.ts`) from an esbuild bundle kept
 * in `node_modules/.cache/portfolio-sentinel/<entry>/`, instead of compiling it module by module
 * through tsx's loader on every start. The bundle is used only while every file esbuild read for it
 * is unchanged (size and mtime, checked at each start); otherwise it is built again first. Packages
 * stay outside the bundle (Node loads them from node_modules), except one Node's own resolution
 * cannot find (`handlebars/runtime`, a path without its extension). `SENTINEL_BUNDLE=off`, or a
 * failed build, runs the entry through tsx as before.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/** The cache folder of all entries' bundles. */
export const BUNDLE_CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'portfolio-sentinel');

/** Files outside the metafile that change what a build gives: this launcher, the package's type, the compiler settings. */
const EXTRA_INPUTS = [relative(ROOT, SELF), 'package.json', 'tsconfig.json'];

/** A build folder older than this that is not the current one is removed (a running process may still load chunks from a recent one). */
const OLD_BUILD_MS = 24 * 60 * 60 * 1000;

/**
 * @typedef {object} Manifest
 * @property {string} root the project folder it was built in (the bundle holds its files' URLs)
 * @property {string} entry the entry, from the project root
 * @property {string} node the Node version the bundle was built for
 * @property {string} esbuild esbuild's version
 * @property {string} options the build options that change the output
 * @property {string} dir the build's folder inside the entry's cache folder
 * @property {Record<string, [number, number]>} inputs every file read, from the project root: size and mtimeMs
 */

/**
 * Imports `entry` (a path from the project root) from its bundle, built or rebuilt first when it is
 * missing or stale; through tsx when `SENTINEL_BUNDLE=off` or when the build fails (said on stderr).
 * @param {string} entry
 * @returns {Promise<Record<string, unknown>>}
 */
export async function importEntry(entry) {
  // The AWS SDK warns about Node 20 on every run; the CLI supports Node 20, the Lambdas run Node 22.
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  if (process.env['SENTINEL_BUNDLE'] !== 'off') {
    let main;
    try {
      main = freshBundle(entry) ?? (await buildBundle(entry));
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      process.stderr.write(`sentinel: could not bundle ${entry} (${reason}); running it through tsx instead\n`);
    }
    if (main !== undefined) {
      process.setSourceMapsEnabled(true);
      return import(pathToFileURL(main).href);
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(ROOT, entry)).href);
}

/** @param {string} entry */
function cacheDirOf(entry) {
  return join(BUNDLE_CACHE_DIR, entry.replace(/\.[cm]?[jt]s$/, '').replace(/[/\\]/g, '-'));
}

/** @param {string} entry */
function buildOptionsKey(entry) {
  return JSON.stringify({ entry, format: 'esm', splitting: true, platform: 'node', target: `node${process.versions.node}`, sourcemap: 'linked' });
}

/**
 * The bundle's main file when the manifest matches this Node, esbuild and entry and every input is unchanged.
 * @param {string} entry
 * @returns {string | undefined}
 */
function freshBundle(entry) {
  const dir = cacheDirOf(entry);
  /** @type {Manifest} */
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (manifest.root !== ROOT || manifest.entry !== entry || manifest.node !== process.version || manifest.options !== buildOptionsKey(entry)) return undefined;
  if (manifest.esbuild !== esbuildVersion()) return undefined;
  for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
    const stat = statSync(join(ROOT, file), { throwIfNoEntry: false });
    if (stat === undefined || stat.size !== size || stat.mtimeMs !== mtimeMs) return undefined;
  }
  const main = join(dir, manifest.dir, 'main.js');
  return existsSync(main) ? main : undefined;
}

/** esbuild's installed version, read without loading it (loading it starts its service). */
function esbuildVersion() {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', 'esbuild', 'package.json'), 'utf8')).version;
  } catch {
    return 'missing';
  }
}

/**
 * Builds `entry` into a new folder, then makes it current by renaming its manifest into place: a
 * process starting meanwhile sees the previous bundle or this one, never half of one.
 * @param {string} entry
 * @returns {Promise<string>} the bundle's main file
 */
async function buildBundle(entry) {
  const esbuild = await import('esbuild');
  const cacheDir = cacheDirOf(entry);
  mkdirSync(cacheDir, { recursive: true });
  removeOldBuilds(cacheDir);
  const name = `build-${Date.now().toString(36)}-${process.pid}`;
  const tmp = join(cacheDir, `${name}.tmp`);
  // Each file's size and mtime are taken before it is read: one saved during the build is seen as changed at the next start.
  const before = new Map(EXTRA_INPUTS.map((file) => [file, statSync(join(ROOT, file))]));
  /** @type {Map<string, import('node:fs').Stats>} */
  const loaded = new Map();
  try {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: { main: join(ROOT, entry) },
      outdir: tmp,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node}`,
      sourcemap: 'linked',
      sourcesContent: false,
      chunkNames: 'chunks/[name]-[hash]',
      metafile: true,
      logLevel: 'silent',
      plugins: [ownSourcesLoader(loaded), nodeResolvedPackagesExternal()],
    });
    /** @type {Record<string, [number, number]>} */
    const inputs = {};
    for (const file of Object.keys(result.metafile.inputs)) {
      if (file.includes(':')) continue;
      const stat = loaded.get(join(ROOT, file)) ?? statSync(join(ROOT, file));
      inputs[file] = [stat.size, stat.mtimeMs];
    }
    for (const [file, stat] of before) inputs[file] = [stat.size, stat.mtimeMs];
    renameSync(tmp, join(cacheDir, name));
    /** @type {Manifest} */
    const manifest = { root: ROOT, entry, node: process.version, esbuild: esbuild.version, options: buildOptionsKey(entry), dir: name, inputs };
    const manifestTmp = join(cacheDir, `${name}.json.tmp`);
    writeFileSync(manifestTmp, JSON.stringify(manifest));
    renameSync(manifestTmp, join(cacheDir, 'current.json'));
    return join(cacheDir, name, 'main.js');
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Removes the builds of an entry that are neither current nor recent, and temporary folders a killed build left.
 * @param {string} cacheDir
 */
function removeOldBuilds(cacheDir) {
  let current;
  try {
    current = JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8')).dir;
  } catch {
    current = undefined;
  }
  for (const name of readdirSync(cacheDir)) {
    if (!name.startsWith('build-') || name === current) continue;
    const stat = statSync(join(cacheDir, name), { throwIfNoEntry: false });
    if (stat !== undefined && Date.now() - stat.mtimeMs > OLD_BUILD_MS) rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
}

/** @type {Record<string, import('esbuild').Loader>} */
const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };

/**
 * Loads the project's own files (not node_modules), noting each one's size and mtime as read, and
 * gives each module its own `import.meta.url` (and `dirname`, `filename`): the code finds templates,
 * fonts and packages from it, which in a bundle would otherwise all be the chunk's URL.
 * @param {Map<string, import('node:fs').Stats>} loaded
 * @returns {import('esbuild').Plugin}
 */
function ownSourcesLoader(loaded) {
  return {
    name: 'own-sources',
    setup(build) {
      build.onLoad({ filter: /\.([cm]?[jt]sx?|json)$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        loaded.set(args.path, statSync(args.path));
        const source = await readFile(args.path, 'utf8');
        const contents = source.includes('import.meta')
          ? source
              .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
              .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)))
              .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path))
          : source;
        return { contents, loader: LOADERS[extname(args.path)] ?? 'ts' };
      });
    },
  };
}

/**
 * Leaves a package import to Node when Node's own ES module resolution finds its file; bundles the
 * others (a deep import without its extension, such as `handlebars/runtime`, which tsx resolved).
 * @returns {import('esbuild').Plugin}
 */
function nodeResolvedPackagesExternal() {
  /** @type {Map<string, boolean>} */
  const found = new Map();
  const nodeFinds = (/** @type {string} */ specifier) => {
    try {
      const url = import.meta.resolve(specifier);
      return !url.startsWith('file:') || statSync(fileURLToPath(url), { throwIfNoEntry: false })?.isFile() === true;
    } catch {
      return false;
    }
  };
  return {
    name: 'node-resolved-packages-external',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || isBuiltin(args.path)) return { path: args.path, external: true };
        if (args.importer.includes(`${sep}node_modules${sep}`)) return undefined;
        if (!found.has(args.path)) found.set(args.path, nodeFinds(args.path));
        return found.get(args.path) ? { path: args.path, external: true } : undefined;
      });
    },
  };
}
