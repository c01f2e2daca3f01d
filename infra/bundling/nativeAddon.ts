import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Fetches `<name>@<version>` from the npm registry as a tarball into `dir`; returns the tarball's path. */
export type PackageFetcher = (spec: string, dir: string) => string;

/** `npm pack <spec>` into `dir`: the registry's tarball, nothing installed. */
export const npmPack: PackageFetcher = (spec, dir) => {
  const run = spawnSync('npm', ['pack', spec, '--pack-destination', dir, '--silent'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm pack ${spec} failed: ${(run.stderr || run.error?.message || '').trim()}`);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack ${spec} wrote no tarball`);
  return join(dir, tarball);
};

/** Where fetched binary packages are kept between builds (ignored by git). */
export const NATIVE_CACHE_DIR = join('.cache', 'native-addons');

/** The version and integrity the lockfile pins for an installed-or-optional package. */
export function lockedPackage(pkg: string, root: string): { version: string; integrity: string } {
  const lockFile = join(root, 'package-lock.json');
  if (!existsSync(lockFile)) throw new Error(`${pkg}: no package-lock.json in ${root} to pin its version`);
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages?: Record<string, { version?: string; integrity?: string }> };
  const entry = lock.packages?.[`node_modules/${pkg}`];
  if (entry?.version === undefined || entry.integrity === undefined) throw new Error(`${pkg} is not pinned (version and integrity) in package-lock.json`);
  return { version: entry.version, integrity: entry.integrity };
}

function integrityOf(file: string, algorithm: string): string {
  return `${algorithm}-${createHash(algorithm).update(readFileSync(file)).digest('base64')}`;
}

/**
 * The directory of a prebuilt-binary package (`@resvg/resvg-js-linux-arm64-gnu`...) for a Lambda
 * architecture, whatever the build host: `node_modules/<pkg>` when npm installed it (the host's
 * own platform), otherwise the lockfile's version of it fetched from the registry (`npm pack`),
 * checked against the lockfile's integrity and unpacked into `.cache/native-addons/`, where later
 * builds find it. Returned relative to `root` when installed, absolute when cached.
 */
export function nativeBinaryDir(pkg: string, root: string, fetch: PackageFetcher = npmPack): string {
  const installed = join('node_modules', pkg);
  if (existsSync(join(root, installed, 'package.json'))) return installed;
  const { version, integrity } = lockedPackage(pkg, root);
  const cached = join(root, NATIVE_CACHE_DIR, `${pkg.replace('/', '+')}@${version}`);
  const dir = join(cached, 'package');
  if (existsSync(join(dir, 'package.json'))) return dir;

  mkdirSync(cached, { recursive: true });
  const work = mkdtempSync(join(root, NATIVE_CACHE_DIR, '.fetch-'));
  try {
    const tarball = fetch(`${pkg}@${version}`, work);
    const [algorithm = 'sha512'] = integrity.split('-', 1);
    const actual = integrityOf(tarball, algorithm);
    if (actual !== integrity) throw new Error(`${pkg}@${version}: the fetched tarball's integrity ${actual} is not the lockfile's ${integrity}`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    const tar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`unpacking ${tarball} failed: ${(tar.stderr || tar.error?.message || '').trim()}`);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8')) as { name?: string; version?: string };
    if (manifest.name !== pkg || manifest.version !== version) throw new Error(`${pkg}@${version}: the tarball holds ${manifest.name}@${manifest.version}`);
    try {
      renameSync(join(unpacked, 'package'), dir);
    } catch (err) {
      if (!existsSync(join(dir, 'package.json'))) throw err; // another build unpacked it meanwhile
    }
    return dir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
