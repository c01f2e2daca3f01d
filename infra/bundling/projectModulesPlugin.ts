import { join, sep } from 'node:path';
import type { Plugin } from 'esbuild';

const RESOLVING = Symbol('resolving a project module');

/**
 * The esbuild plugin declaring the project's own modules (`functions/`) free of import-time side
 * effects, as the layout requires (no module runs anything when imported; see `test/infra/
 * bundleContents.test.ts`): a module whose exports a handler never uses then adds nothing to its
 * bundle, not even the zod schemas and tables it builds at top level. Without it esbuild keeps those
 * of every module a handler reaches through a shared one (the composition root's factories, say).
 */
export function projectModulesPlugin(root: string): Plugin {
  const functions = join(root, 'functions') + sep;
  return {
    name: 'sentinel-project-modules',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === RESOLVING || !args.importer.startsWith(functions)) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
        if (resolved.errors.length > 0 || !resolved.path.startsWith(functions)) return undefined;
        return { path: resolved.path, sideEffects: false };
      });
    },
  };
}
