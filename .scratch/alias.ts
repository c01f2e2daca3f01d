import { build } from 'esbuild';
import { esbuildOptions, LAMBDA_ALIASES } from '../infra/bundling/bundleSettings';
import { handlerEntry, PROJECT_ROOT } from '../infra/bundling/handlerEntry';
import { join } from 'node:path';
for (const drop of ['', 'mnemonist/lru-cache', 'source-map']) {
  for (const name of ['dispatch', 'notify'] as const) {
    const o = esbuildOptions(handlerEntry(name), `/tmp/alias/${drop || 'all'}/${name}`, name === 'notify' ? ['@resvg/resvg-js'] : []);
    o.alias = Object.fromEntries(Object.entries(LAMBDA_ALIASES).filter(([k]) => k !== drop).map(([k, v]) => [k, join(PROJECT_ROOT, v)]));
    const r = await build(o);
    const out = Object.entries(r.metafile!.outputs).find(([k]) => k.endsWith('.mjs'))![1];
    console.log(drop || '(all aliases)', name, out.bytes, Object.keys(out.inputs).filter((i) => /mnemonist|lruCache|source-map|withoutSource/.test(i)).join(' '));
  }
}
