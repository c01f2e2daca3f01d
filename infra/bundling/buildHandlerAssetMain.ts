/**
 * `node --import tsx infra/bundling/buildHandlerAssetMain.ts <handler> <arm64|x64> <out dir>`: what
 * the CDK asset of a handler runs to build it (`handlerCode.ts`), in a process of its own because
 * CDK's local bundling is synchronous and esbuild plugins need the asynchronous API.
 */
import { buildHandlerAsset } from './buildHandlerAsset';
import { HANDLER_NAMES, type HandlerName } from './handlerCatalog';

const [name, arch, outDir, ...extra] = process.argv.slice(2);
if (!HANDLER_NAMES.includes(name as HandlerName) || (arch !== 'arm64' && arch !== 'x64') || outDir === undefined || extra.length > 0) {
  console.error(`usage: buildHandlerAssetMain.ts <${HANDLER_NAMES.join('|')}> <arm64|x64> <out dir>`);
  process.exit(2);
}
await buildHandlerAsset(name as HandlerName, arch, outDir);
