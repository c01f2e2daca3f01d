/**
 * `node --import tsx infra/bundling/assetExtrasMain.ts <handler> <arm64|x64> <out dir>`: the
 * `afterBundling` hook of a handler's `NodejsFunction` (`nodejsBundling`), run from the project
 * root. Copies what ships next to the bundle and writes the generated files (`addAssetExtras`).
 */
import { HANDLER_NAMES, type HandlerName } from '../../functions/config/handlerCatalog';
import { addAssetExtras } from './buildHandlerAsset';

const [name, arch, outDir, ...extra] = process.argv.slice(2);
if (!HANDLER_NAMES.includes(name as HandlerName) || (arch !== 'arm64' && arch !== 'x64') || outDir === undefined || extra.length > 0) {
  console.error(`usage: assetExtrasMain.ts <${HANDLER_NAMES.join('|')}> <arm64|x64> <out dir>`);
  process.exit(2);
}
addAssetExtras(name as HandlerName, arch, outDir);
