import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleCopies, nativeBinaryPackage, nodejsBundling } from '../../infra/bundling/bundleSettings';
import { HANDLER_NAMES } from '../../infra/bundling/handlerCatalog';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project root with just the given node_modules packages. */
function fakeRoot(packages: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'sentinel-root-'));
  roots.push(root);
  for (const pkg of packages) mkdirSync(join(root, 'node_modules', pkg), { recursive: true });
  return root;
}

describe('bundleCopies', () => {
  it('ships templates, the chart fonts and the native module with the binary for the function architecture', () => {
    const root = fakeRoot(['@resvg/resvg-js', '@resvg/resvg-js-linux-arm64-gnu', 'dejavu-fonts-ttf']);
    expect(bundleCopies('notify', 'arm64', root)).toEqual([
      { from: 'templates', to: 'templates' },
      { from: 'node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf', to: 'fonts/DejaVuSans.ttf' },
      { from: 'node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf', to: 'fonts/DejaVuSans-Bold.ttf' },
      { from: 'node_modules/dejavu-fonts-ttf/LICENSE', to: 'fonts/LICENSE-DejaVu' },
      { from: 'node_modules/@resvg/resvg-js', to: 'node_modules/@resvg/resvg-js' },
      { from: 'node_modules/@resvg/resvg-js-linux-arm64-gnu', to: 'node_modules/@resvg/resvg-js-linux-arm64-gnu' },
    ]);
    expect(bundleCopies('collect', 'arm64', root)).toEqual([]);
  });

  it('fails naming the package and the install command when the binary is missing', () => {
    const root = fakeRoot(['@resvg/resvg-js', '@resvg/resvg-js-linux-x64-gnu', 'dejavu-fonts-ttf']);
    expect(() => bundleCopies('daily-report', 'arm64', root)).toThrow(
      /@resvg\/resvg-js-linux-arm64-gnu is not installed.*npm install --no-save --os=linux --cpu=arm64 @resvg\/resvg-js-linux-arm64-gnu/,
    );
  });

  it('fails naming the font package when it is missing', () => {
    const root = fakeRoot(['@resvg/resvg-js', '@resvg/resvg-js-linux-arm64-gnu']);
    expect(() => bundleCopies('notify', 'arm64', root)).toThrow(/notify: dejavu-fonts-ttf \(the chart fonts\) is not installed/);
  });

  it('names napi-rs binary packages for Lambda (Linux, glibc)', () => {
    expect(nativeBinaryPackage('@resvg/resvg-js', 'x64')).toBe('@resvg/resvg-js-linux-x64-gnu');
  });
});

describe('nodejsBundling', () => {
  it('bundles locally with esbuild, never in Docker, ESM for Node 22, everything but native addons', () => {
    for (const name of HANDLER_NAMES) {
      const options = nodejsBundling(name, 'x64');
      expect(options).toMatchObject({ forceDockerBundling: false, target: 'node22', format: 'esm', minify: true, sourceMap: true });
      expect(options.externalModules?.every((m) => m === '@resvg/resvg-js')).toBe(true);
    }
  });

  it('copies what bundleCopies lists, then precompiles the templates, after bundling', () => {
    const commands = nodejsBundling('notify', 'x64').commandHooks?.afterBundling('/in', '/out') ?? [];
    expect(commands).toEqual([
      'mkdir -p "$(dirname "/out/templates")" && cp -R "/in/templates" "/out/templates"',
      'mkdir -p "$(dirname "/out/fonts/DejaVuSans.ttf")" && cp -R "/in/node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf" "/out/fonts/DejaVuSans.ttf"',
      'mkdir -p "$(dirname "/out/fonts/DejaVuSans-Bold.ttf")" && cp -R "/in/node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf" "/out/fonts/DejaVuSans-Bold.ttf"',
      'mkdir -p "$(dirname "/out/fonts/LICENSE-DejaVu")" && cp -R "/in/node_modules/dejavu-fonts-ttf/LICENSE" "/out/fonts/LICENSE-DejaVu"',
      'mkdir -p "$(dirname "/out/node_modules/@resvg/resvg-js")" && cp -R "/in/node_modules/@resvg/resvg-js" "/out/node_modules/@resvg/resvg-js"',
      'mkdir -p "$(dirname "/out/node_modules/@resvg/resvg-js-linux-x64-gnu")" && cp -R "/in/node_modules/@resvg/resvg-js-linux-x64-gnu" "/out/node_modules/@resvg/resvg-js-linux-x64-gnu"',
      'cd "/in" && node --import tsx infra/bundling/writePrecompiledTemplates.ts "/out/templates"',
    ]);
  });
});
