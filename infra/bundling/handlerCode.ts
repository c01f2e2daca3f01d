import { spawnSync } from 'node:child_process';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { BundleArch } from './bundleSettings';
import { PROJECT_ROOT, type HandlerName } from './handlerCatalog';

/** The script that builds one asset, run from the project root. */
export const BUILD_ASSET_SCRIPT = 'infra/bundling/buildHandlerAssetMain.ts';

/**
 * The code of a handler's Lambda: an asset built locally by `buildHandlerAsset` (never in Docker;
 * the image is never pulled), hashed by its output. CDK caches the staging by these options, which
 * name the handler and the architecture, so a synth builds each (handler, architecture) once.
 */
export function handlerCode(name: HandlerName, arch: BundleArch, root: string = PROJECT_ROOT): Code {
  return Code.fromAsset(root, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('local-bundling-only'),
      command: ['sentinel-bundle', name, arch],
      local: {
        tryBundle(outputDir: string): boolean {
          const run = spawnSync(process.execPath, ['--import', 'tsx', BUILD_ASSET_SCRIPT, name, arch, outputDir], { cwd: root, encoding: 'utf8' });
          if (run.status !== 0) throw new Error(`bundling ${name} (${arch}) failed: ${(run.stderr || run.error?.message || '').trim()}`);
          return true;
        },
      },
    },
  });
}
