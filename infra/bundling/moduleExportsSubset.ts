/**
 * A CommonJS module keeping only the `module.exports.<name> = ...` statements of `names` from
 * `source` (each up to the next top-level statement), for modules whose other exports pull in code
 * (DNS, sockets, URL fetching) the bundles never run. Undefined when a statement is not found or
 * uses a top-level name of the module (the real module is then kept).
 */
export function moduleExportsSubset(source: string, names: readonly string[]): string | undefined {
  const statements: string[] = [];
  for (const name of names) {
    const start = source.indexOf(`\nmodule.exports.${name} = `);
    if (start < 0) return undefined;
    const rest = source.slice(start + 1);
    const end = rest.slice(1).search(/\n(?=[^\s}])/);
    const statement = (end < 0 ? rest : rest.slice(0, end + 1)).trimEnd();
    if (!/[;}]$/.test(statement)) return undefined;
    statements.push(statement);
  }
  const kept = statements.join('\n');
  const moduleNames = [...source.matchAll(/^(?:const|let|var|function) (\w+)/gm)].map((m) => m[1] ?? '');
  if (moduleNames.some((name) => new RegExp(`\\b${name}\\b`).test(kept))) return undefined;
  return `'use strict';\n${kept}\n`;
}
