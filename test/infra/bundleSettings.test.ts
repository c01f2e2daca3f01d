import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleCopies, nativeBinaryPackage } from '../../infra/bundling/bundleSettings';

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
