import { build } from 'esbuild';
import { join } from 'node:path';
import { esbuildOptions } from '../infra/bundling/bundleSettings';
import { HANDLER_CATALOG, HANDLER_NAMES } from '../functions/handlers/catalog';
import { handlerEntry } from '../infra/bundling/handlerEntry';
const mode = process.argv[2];
for (const name of HANDLER_NAMES) {
  const o = esbuildOptions(handlerEntry(name), `/tmp/exp/${mode}/${name}`, HANDLER_CATALOG[name].bundle.nativeModules);
  if (mode === 'noplugins') o.plugins = [];
  if (mode === 'nostubs') o.plugins = o.plugins!.slice(1);
  const r = await build(o);
  const inputs = Object.values(r.metafile!.outputs).flatMap((out) => Object.entries(out.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([p]) => p));
  const repos = inputs.map((i) => /^functions\/store\/(\w+)Repository\.ts$/.exec(i)?.[1]).filter(Boolean).sort();
  const bytes = Object.values(r.metafile!.outputs).reduce((a, o2) => a + (o2.bytes ?? 0), 0);
  console.log(mode, name, (Object.entries(r.metafile!.outputs).find(([k]) => k.endsWith('.mjs'))![1].bytes / 1024).toFixed(1), 'KB', repos.join(','), inputs.filter(i=>/functions\/(services|mail|chain)\//.test(i)).length);
}
