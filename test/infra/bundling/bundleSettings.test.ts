import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleCopies, nativeBinaryPackage } from '../../../infra/bundling/bundleSettings';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A project root with just the given node_modules packages (and their package.json). */
function fakeRoot(packages: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'sentinel-root-'));
  roots.push(root);
  for (const pkg of packages) {
    mkdirSync(join(root, 'node_modules', pkg), { recursive: true });
    writeFileSync(join(root, 'node_modules', pkg, 'package.json'), JSON.stringify({ name: pkg, version: '2.6.2' }));
  }
  return root;
}

const noFetch = (): string => expect.fail('nothing is fetched when the package is installed');

describe('bundleCopies', () => {
  it('ships templates, the chart fonts and the native module with the binary for the function architecture', () => {
    const root = fakeRoot(['@resvg/resvg-js', '@resvg/resvg-js-linux-arm64-gnu', 'dejavu-fonts-ttf']);
    expect(bundleCopies('notify', 'arm64', root, noFetch)).toEqual([
      { from: 'templates', to: 'templates' },
      { from: 'node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf', to: 'fonts/DejaVuSans.ttf' },
      { from: 'node_modules/dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf', to: 'fonts/DejaVuSans-Bold.ttf' },
      { from: 'node_modules/dejavu-fonts-ttf/LICENSE', to: 'fonts/LICENSE-DejaVu' },
      { from: 'node_modules/@resvg/resvg-js', to: 'node_modules/@resvg/resvg-js' },
      { from: 'node_modules/@resvg/resvg-js-linux-arm64-gnu', to: 'node_modules/@resvg/resvg-js-linux-arm64-gnu' },
    ]);
    expect(bundleCopies('collect', 'arm64', root, noFetch)).toEqual([]);
  });

  it('fails naming the binary package when it is neither installed nor pinned by the lockfile', () => {
    const root = fakeRoot(['@resvg/resvg-js', '@resvg/resvg-js-linux-x64-gnu', 'dejavu-fonts-ttf']);
    writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ packages: {} }));
    expect(() => bundleCopies('daily-report', 'arm64', root)).toThrow(
      /@resvg\/resvg-js-linux-arm64-gnu is not pinned \(version and integrity\) in package-lock.json/,
    );
  });

  it('fails naming the font package when it is missing', () => {
    const root = fakeRoot(['@resvg/resvg-js', '@resvg/resvg-js-linux-arm64-gnu']);
    expect(() => bundleCopies('notify', 'arm64', root, noFetch)).toThrow(/notify: dejavu-fonts-ttf \(the chart fonts\) is not installed/);
  });

  it('names napi-rs binary packages for Lambda (Linux, glibc)', () => {
    expect(nativeBinaryPackage('@resvg/resvg-js', 'x64')).toBe('@resvg/resvg-js-linux-x64-gnu');
  });
});
