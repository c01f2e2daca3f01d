import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NATIVE_CACHE_DIR, nativeBinaryDir, type PackageFetcher } from '../../../infra/bundling/nativeAddon';

const PKG = '@resvg/resvg-js-linux-arm64-gnu';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sentinel-native-'));
  dirs.push(dir);
  return dir;
}

/** A registry tarball of `PKG` holding a fake addon, and its sha512 integrity. */
function tarball(version: string, name = PKG): { file: string; integrity: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'package'));
  writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify({ name, version }));
  writeFileSync(join(dir, 'package', 'resvgjs.linux-arm64-gnu.node'), 'fake addon');
  const file = join(dir, 'pkg.tgz');
  execFileSync('tar', ['-czf', file, '-C', dir, 'package']);
  return { file, integrity: `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}` };
}

/** A project root whose lockfile pins `PKG` at 2.6.2 with `integrity`, nothing installed. */
function rootPinning(integrity: string): string {
  const root = tempDir();
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ packages: { [`node_modules/${PKG}`]: { version: '2.6.2', integrity } } }));
  return root;
}

function fetcher(file: string): PackageFetcher & { specs: string[] } {
  const specs: string[] = [];
  return Object.assign(
    (spec: string, dir: string) => {
      specs.push(spec);
      copyFileSync(file, join(dir, 'fetched.tgz'));
      return join(dir, 'fetched.tgz');
    },
    { specs },
  );
}

describe('nativeBinaryDir', () => {
  it('uses the installed package when npm installed it for this host', () => {
    const root = tempDir();
    mkdirSync(join(root, 'node_modules', PKG), { recursive: true });
    writeFileSync(join(root, 'node_modules', PKG, 'package.json'), '{}');
    expect(nativeBinaryDir(PKG, root, () => expect.fail('not fetched'))).toBe(join('node_modules', PKG));
  });

  it("fetches the lockfile's version, checks its integrity, unpacks it into the cache, and fetches it only once", () => {
    const { file, integrity } = tarball('2.6.2');
    const root = rootPinning(integrity);
    const fetch = fetcher(file);
    const dir = nativeBinaryDir(PKG, root, fetch);
    expect(isAbsolute(dir)).toBe(true);
    expect(dir).toBe(join(root, NATIVE_CACHE_DIR, '@resvg+resvg-js-linux-arm64-gnu@2.6.2', 'package'));
    expect(readFileSync(join(dir, 'resvgjs.linux-arm64-gnu.node'), 'utf8')).toBe('fake addon');
    expect(nativeBinaryDir(PKG, root, fetch)).toBe(dir);
    expect(fetch.specs).toEqual([`${PKG}@2.6.2`]);
    expect(readdirSync(join(root, NATIVE_CACHE_DIR))).toEqual(['@resvg+resvg-js-linux-arm64-gnu@2.6.2']);
  });

  it("refuses a tarball whose integrity is not the lockfile's, and caches nothing", () => {
    const { file } = tarball('2.6.2');
    const root = rootPinning(`sha512-${Buffer.alloc(64).toString('base64')}`);
    expect(() => nativeBinaryDir(PKG, root, fetcher(file))).toThrow(/integrity sha512-.* is not the lockfile's sha512-AAAA/);
    expect(existsSync(join(root, NATIVE_CACHE_DIR, '@resvg+resvg-js-linux-arm64-gnu@2.6.2', 'package'))).toBe(false);
    expect(readdirSync(join(root, NATIVE_CACHE_DIR))).toEqual(['@resvg+resvg-js-linux-arm64-gnu@2.6.2']);
  });

  it('refuses a tarball of another package or version', () => {
    const { file, integrity } = tarball('2.6.1');
    expect(() => nativeBinaryDir(PKG, rootPinning(integrity), fetcher(file))).toThrow(/2.6.2: the tarball holds @resvg\/resvg-js-linux-arm64-gnu@2.6.1/);
  });
});
