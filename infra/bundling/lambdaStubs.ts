import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ImportKind, Plugin } from 'esbuild';
import { moduleExportsSubset } from './moduleExportsSubset';
import { compactSdkErrors, packageVersionModule } from './sdkErrorClasses';

/**
 * A module of a dependency that the Lambda bundles replace (esbuild's `alias` reaches only bare
 * package imports; these are relative or dynamic imports inside packages, hence a plugin).
 */
export interface LambdaStub {
  /** The replaced file, as its path ends below `node_modules/` (a pattern for the same file of several packages). */
  readonly module: string | RegExp;
  /** The import specifiers that can reach it. */
  readonly imports: RegExp;
  /** Only imports of this kind are replaced (a static import elsewhere keeps the real module). */
  readonly kind?: ImportKind;
  /**
   * The replacement: a module of this project (path from the project root), CommonJS source, or
   * `throwing`: a module with every export of the real one, each a function that throws when called, or
   * `derived`: a module made from the real one's source (undefined when it cannot be: the real one stays).
   */
  readonly replacement:
    | { readonly file: string }
    | { readonly commonJs: string }
    | { readonly throwing: true }
    | { readonly derived: (source: string) => string | undefined };
}

/** What `nodemailer/lib/mime-node` and `mail-composer`, its only importers in the bundles, use of `nodemailer/lib/shared`. */
export const NODEMAILER_SHARED_USED = ['callbackPromise', 'parseDataURI'] as const;

/**
 * Modules replaced in every bundle, each by something smaller that behaves the same for the calls
 * the handlers make:
 * - nodemailer's MIME-type table (74 KB), consulted only for parts without a content type or file
 *   name, by the same lookups over the types the messages carry;
 * - nodemailer's `fetch` (5 KB), used only for content given as a URL, which `buildMime` never
 *   passes, by a function that throws;
 * - `@smithy/core/event-streams` (14 KB) where the SDK loads it on demand, only for event-stream
 *   operations, by classes that throw (client-lambda imports it statically and keeps it);
 * - zod's JSON Schema generation (`toJSONSchema`, the `~standard` JSON Schema methods, the
 *   `minLength`/`format`... getters; 17 KB), which no handler uses, by functions that throw;
 * - `mnemonist/lru-cache` (7 KB with its dependency), the DynamoDB client's endpoint cache, by a
 *   `Map`-based cache with the same methods;
 * - nodemailer's `shared` module (7 KB: DNS cache, connection URLs, loggers, content resolution for
 *   its transports) by the two functions of it that MIME composition uses (`NODEMAILER_SHARED_USED`);
 * - the SDK's JavaScript SHA-256 (3 KB), its fallback for a Node.js without `node:crypto`, by a
 *   class that throws;
 * - the AWS SDK clients' exception classes (`models/errors.js`, all registered by the client's
 *   schemas whichever operations a handler calls; 3-11 KB per client), by the same classes built by
 *   one function (`compactSdkErrors`);
 * - the clients' `package.json` (2.2-2.4 KB each), read for its version only, by that version.
 */
export const LAMBDA_STUBS: readonly LambdaStub[] = [
  {
    module: 'nodemailer/lib/mime-funcs/mime-types.js',
    imports: /^\.\/mime-types$/,
    replacement: { file: 'infra/bundling/stubs/mailMimeTypes.ts' },
  },
  {
    module: 'nodemailer/lib/fetch/index.js',
    imports: /^\.\.\/fetch$/,
    replacement: {
      commonJs:
        "function fetchUnavailable() { throw new Error('nodemailer fetch (content by URL) is not part of the Lambda bundles (infra/bundling/lambdaStubs.ts)'); }\n" +
        'module.exports = fetchUnavailable;\nmodule.exports.Cookies = class Cookies {};\n',
    },
  },
  {
    module: '@smithy/core/dist-es/submodules/event-streams/index.js',
    imports: /^@smithy\/core\/event-streams$/,
    kind: 'dynamic-import',
    replacement: { file: 'infra/bundling/stubs/withoutEventStreams.ts' },
  },
  {
    module: 'zod/v4/core/json-schema-processors.js',
    imports: /\/json-schema-processors\.js$/,
    replacement: { throwing: true },
  },
  {
    module: 'zod/v4/core/to-json-schema.js',
    imports: /\/to-json-schema\.js$/,
    replacement: { throwing: true },
  },
  {
    module: 'mnemonist/lru-cache.js',
    imports: /^mnemonist\/lru-cache$/,
    replacement: { file: 'infra/bundling/stubs/lruCache.ts' },
  },
  {
    module: 'nodemailer/lib/shared/index.js',
    imports: /^\.\.\/shared$/,
    replacement: { derived: (source) => moduleExportsSubset(source, NODEMAILER_SHARED_USED) },
  },
  {
    module: '@smithy/core/dist-es/submodules/checksum/sha256/Sha256Js.js',
    imports: /^\.\/Sha256Js$/,
    replacement: { throwing: true },
  },
  {
    module: /^@aws-sdk\/client-[a-z0-9-]+\/dist-es\/models\/errors\.js$/,
    imports: /^\.\.?\/models\/errors$/,
    replacement: { derived: compactSdkErrors },
  },
  {
    module: /^@aws-sdk\/client-[a-z0-9-]+\/package\.json$/,
    imports: /^\.\.\/package\.json$/,
    replacement: { derived: packageVersionModule },
  },
];

/** Whether `path` (a file path with `/` separators) is the module `stub` replaces. */
export function isStubbedModule(stub: Pick<LambdaStub, 'module'>, path: string): boolean {
  const at = path.lastIndexOf('/node_modules/');
  if (at < 0) return false;
  const below = path.slice(at + '/node_modules/'.length);
  return typeof stub.module === 'string' ? below === stub.module : stub.module.test(below);
}

/** The names a plain ES module exports (`export const|function|class x`, `export { a as b }`). */
export function exportedNames(source: string): string[] {
  const names = [...source.matchAll(/^export (?:const|let|var|function\*?|async function|class) (\w+)/gm)].map((m) => m[1] ?? '');
  for (const [, list = ''] of source.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const part of list.split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop()?.trim();
      if (name) names.push(name);
    }
  }
  return [...new Set(names)];
}

/** A module with every export of `source`, each a function that throws naming `module`. */
export function throwingModule(module: string, source: string): string {
  const message = JSON.stringify(`${module} is not part of the Lambda bundles (infra/bundling/lambdaStubs.ts)`);
  return [`function unavailable() { throw new Error(${message}); }`, ...exportedNames(source).map((name) => `export const ${name} = unavailable;`), ''].join('\n');
}

const NAMESPACE = 'sentinel-lambda-stub';
const RESOLVING = Symbol('resolving a stub candidate');

/** The esbuild plugin applying `LAMBDA_STUBS` (an import of any other file goes through untouched). */
export function lambdaStubsPlugin(root: string, stubs: readonly LambdaStub[] = LAMBDA_STUBS): Plugin {
  return {
    name: 'sentinel-lambda-stubs',
    setup(build) {
      const filter = new RegExp(stubs.map((s) => `(?:${s.imports.source})`).join('|'));
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData === RESOLVING) return undefined;
        const candidates = stubs.filter((s) => s.imports.test(args.path) && (s.kind === undefined || s.kind === args.kind));
        if (candidates.length === 0) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
        if (resolved.errors.length > 0) return undefined;
        const path = resolved.path.replaceAll('\\', '/');
        const stub = candidates.find((s) => isStubbedModule(s, path));
        const unchanged = { path: resolved.path, sideEffects: resolved.sideEffects };
        if (stub === undefined) return unchanged;
        const { replacement } = stub;
        if ('file' in replacement) return { path: join(root, replacement.file) };
        let contents: string | undefined;
        if ('commonJs' in replacement) contents = replacement.commonJs;
        else if ('derived' in replacement) contents = replacement.derived(readFileSync(resolved.path, 'utf8'));
        else contents = throwingModule(path.slice(path.lastIndexOf('/node_modules/') + '/node_modules/'.length), readFileSync(resolved.path, 'utf8'));
        if (contents === undefined) return unchanged;
        return { path: resolved.path, namespace: NAMESPACE, pluginData: contents };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: String(args.pluginData), loader: 'js', resolveDir: dirname(args.path) }));
    },
  };
}
