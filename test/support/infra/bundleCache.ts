import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import type { BundlingOptions, ILocalBundling } from 'aws-cdk-lib';
import { Code, type AssetCode } from 'aws-cdk-lib/aws-lambda';
import type { AssetOptions } from 'aws-cdk-lib/aws-s3-assets';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';

/**
 * What can change a handler's bundle besides its bundling options: the folders its code, its
 * after-bundling hook and its templates come from, and the files that pin esbuild, the packages
 * and the TypeScript settings. `bundleCache.test.ts` checks that every input esbuild reads for a
 * handler lies under one of these or in `node_modules` (pinned by the lockfile).
 */
export const BUNDLE_SOURCES = { folders: ['functions', 'infra/bundling', 'templates'], files: ['package.json', 'package-lock.json', 'tsconfig.json'] } as const;

/** The default cache folder (git-ignored), shared by every test process of this checkout. */
export const BUNDLE_CACHE_DIR = join(PROJECT_ROOT, '.cache', 'test-bundles');

/** Entries not used for this long are removed when a new one is stored. */
const MAX_AGE_MS = 7 * 24 * 3_600_000;
/** A lock older than this is taken to be left by a killed process. */
const STALE_LOCK_MS = 10 * 60_000;

function filesUnder(root: string, dir: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [dir];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(root, join(dir, name)));
}

/** SHA-256 over the names and contents of every file of {@link BUNDLE_SOURCES} under `root` (defaults: these sources). */
export function bundleSourceFingerprint(root: string, sources: { folders: readonly string[]; files: readonly string[] } = BUNDLE_SOURCES): string {
  const hash = createHash('sha256');
  for (const file of [...sources.folders, ...sources.files].flatMap((entry) => filesUnder(root, entry))) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** JSON with object keys sorted, functions and `local` left out: the bundling options as data. */
function optionsJson(bundling: BundlingOptions): string {
  return JSON.stringify(bundling, (key, value: unknown) => {
    if (key === 'local' || typeof value === 'function') return undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
  });
}

/** CDK's own `Code.fromAsset`, whatever cache is installed later in this process. */
const uncachedFromAsset = Code.fromAsset.bind(Code);

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Counts of one cache's answers, for the tests that prove it. */
export interface BundleCacheStats {
  hits: number;
  misses: number;
}

/**
 * A cache of CDK's local bundling (each `NodejsFunction`'s esbuild run and after-bundling hook),
 * shared across test processes through a folder. An entry's key is a hash of the asset's source
 * folder, its bundling options as data (the esbuild arguments and the hook command are in them)
 * and {@link bundleSourceFingerprint} of that folder, so any change to a source, a template, the
 * lockfile or the settings bundles again for real; a failed bundle is never stored. One process
 * bundles a given key while the others wait for its entry (a lock folder beside it).
 */
export class BundleCache {
  readonly stats: BundleCacheStats = { hits: 0, misses: 0 };

  constructor(
    readonly dir: string = BUNDLE_CACHE_DIR,
    private readonly sources: { folders: readonly string[]; files: readonly string[] } = BUNDLE_SOURCES,
  ) {}

  /** `bundling` with its local bundler answered from the cache; unchanged when it has no local bundler. */
  wrap(sourcePath: string, bundling: BundlingOptions): BundlingOptions {
    const local = bundling.local;
    if (!local) return bundling;
    const options = optionsJson(bundling);
    // Taken afresh when the asset is bundled (about 30 ms), not when it is declared: a source changed
    // within a process is never missed, and the later synths of a process, whose assets CDK's staging
    // answers without bundling, take none.
    const key = (): string =>
      createHash('sha256')
        .update(`${sourcePath}\0${bundleSourceFingerprint(sourcePath, this.sources)}\0${options}`)
        .digest('hex');
    const cached: ILocalBundling = { tryBundle: (outputDir, bundlingOptions) => this.tryBundle(key(), local, outputDir, bundlingOptions) };
    Object.assign(bundling, { local: cached });
    return bundling;
  }

  private tryBundle(key: string, local: ILocalBundling, outputDir: string, options: BundlingOptions): boolean {
    const entry = join(this.dir, key);
    const lock = `${entry}.lock`;
    mkdirSync(this.dir, { recursive: true });
    for (;;) {
      if (existsSync(entry)) {
        cpSync(entry, outputDir, { recursive: true });
        const now = new Date();
        utimesSync(entry, now, now);
        this.stats.hits += 1;
        return true;
      }
      try {
        mkdirSync(lock);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const lockedAt = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
        if (lockedAt !== undefined && Date.now() - lockedAt > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
        else sleep(250);
      }
    }
    try {
      this.stats.misses += 1;
      if (!local.tryBundle(outputDir, options)) return false;
      const staging = `${entry}.${process.pid}.tmp`;
      cpSync(outputDir, staging, { recursive: true });
      renameSync(staging, entry);
      this.prune();
      return true;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }

  private prune(): void {
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > MAX_AGE_MS && !name.endsWith('.lock')) rmSync(path, { recursive: true, force: true });
    }
  }

  /**
   * Answers `Code.fromAsset`'s bundling (what `NodejsFunction` calls) from this cache alone, in place
   * of any cache installed before, until the returned function puts the previous one back.
   */
  install(): () => void {
    const previous = Code.fromAsset;
    const patched = (path: string, options?: AssetOptions): AssetCode =>
      uncachedFromAsset(path, options?.bundling ? { ...options, bundling: this.wrap(path, options.bundling) } : options);
    Code.fromAsset = patched;
    return () => {
      if (Code.fromAsset === patched) Code.fromAsset = previous;
    };
  }
}

let shared: BundleCache | undefined;

/**
 * Installs the shared cache in this process once (`synthStage` calls it), unless
 * `SENTINEL_TEST_BUNDLE_CACHE=off`. Returns it, or `undefined` when off.
 */
export function useBundleCache(): BundleCache | undefined {
  if (process.env['SENTINEL_TEST_BUNDLE_CACHE'] === 'off') return undefined;
  if (!shared) {
    shared = new BundleCache();
    shared.install();
  }
  return shared;
}
