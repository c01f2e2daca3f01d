// Preloaded (`NODE_OPTIONS=--import`) into every process the `cdk synth` CLI test starts: in the CDK
// app's own process (`infra/app.ts`, the app command of cdk.json) it installs the test bundle cache
// (`bundleCache.ts`, off with `SENTINEL_TEST_BUNDLE_CACHE=off`); in any other process it does nothing.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const APP_SCRIPT = fileURLToPath(new URL('../../../infra/app.ts', import.meta.url));

if (process.argv[1] !== undefined && resolve(process.argv[1]) === APP_SCRIPT) {
  const { register } = await import('tsx/esm/api');
  // A namespace of its own: the app's TypeScript stays with the loader tsx runs it under.
  const { useBundleCache } = await register({ namespace: 'sentinel-bundle-cache' }).import('./bundleCache.ts', import.meta.url);
  useBundleCache();
}
