import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';
import { BundleCache, bundleSourceFingerprint } from '../../support/infra/bundleCache';

const work = mkdtempSync(join(tmpdir(), 'sentinel-bundle-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A project of its own: one handler importing a sibling module, the project's node_modules linked in (esbuild). */
function tinyProject(): string {
  const root = join(work, 'project');
  mkdirSync(join(root, 'functions'), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }');
  writeFileSync(join(root, 'package-lock.json'), '{ "lockfileVersion": 3, "packages": {} }');
  writeFileSync(join(root, 'functions', 'greeting.ts'), "export const greeting = 'first';\n");
  writeFileSync(join(root, 'functions', 'handler.ts'), "import { greeting } from './greeting';\nexport const handler = async () => greeting;\n");
  return root;
}

/** Synthesizes one `NodejsFunction` of the tiny project through `cache`; returns its bundle's code. */
function synthTiny(root: string, cache: BundleCache): string {
  const restore = cache.install();
  try {
    const outdir = mkdtempSync(join(work, 'out-'));
    // Bundling is what is proven here: CDK's CloudFormation schema check (about 8 s of CPU to load) stays off.
    const app = new App({ outdir, builtinCloudFormationValidation: false });
    new NodejsFunction(new Stack(app, 'Tiny'), 'Fn', {
      entry: join(root, 'functions', 'handler.ts'),
      projectRoot: root,
      depsLockFilePath: join(root, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      bundling: { format: OutputFormat.ESM, forceDockerBundling: false, logLevel: LogLevel.ERROR },
    });
    const assembly = app.synth();
    const asset = readdirSync(assembly.directory).find((name) => name.startsWith('asset.')) ?? expect.fail('no asset');
    return readFileSync(join(assembly.directory, asset, 'index.mjs'), 'utf8');
  } finally {
    restore();
  }
}

describe('the test bundle cache', () => {
  it('answers a second synth of unchanged sources from the cache, bundles a changed one for real, and never stores a failed bundle', () => {
    const root = tinyProject();
    const cache = new BundleCache(join(work, 'cache'), { folders: ['functions'], files: ['package.json', 'package-lock.json'] });

    expect(synthTiny(root, cache)).toContain('"first"');
    expect(cache.stats).toEqual({ hits: 0, misses: 1 });
    expect(synthTiny(root, cache)).toContain('"first"');
    expect(cache.stats).toEqual({ hits: 1, misses: 1 });

    // A changed module the handler imports (not the entry itself): bundled again, with the change.
    writeFileSync(join(root, 'functions', 'greeting.ts'), "export const greeting = 'second';\n");
    expect(synthTiny(root, cache)).toContain('"second"');
    expect(cache.stats).toEqual({ hits: 1, misses: 2 });

    // A broken module fails the synth (esbuild's error), however many entries the cache holds, and stores nothing.
    writeFileSync(join(root, 'functions', 'greeting.ts'), 'export const greeting = ;\n');
    const entries = readdirSync(cache.dir).length;
    expect(() => synthTiny(root, cache)).toThrow(/Failed to bundle asset/);
    expect(readdirSync(cache.dir)).toHaveLength(entries);

    // Fixed back to the first source: the first entry answers again.
    writeFileSync(join(root, 'functions', 'greeting.ts'), "export const greeting = 'first';\n");
    expect(synthTiny(root, cache)).toContain('"first"');
    expect(cache.stats).toEqual({ hits: 2, misses: 3 });
  }, 180_000);

  it('fingerprints every file of the source folders and the pinning files, and nothing else', () => {
    const root = join(work, 'fingerprint');
    for (const dir of ['functions/handlers', 'infra/bundling', 'templates', 'docs']) mkdirSync(join(root, dir), { recursive: true });
    const files: Record<string, string> = {
      'functions/handlers/a.ts': 'a',
      'infra/bundling/settings.ts': 'b',
      'templates/mail.hbs': 'c',
      'package.json': 'd',
      'package-lock.json': 'e',
      'tsconfig.json': 'f',
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
    const before = bundleSourceFingerprint(root);
    for (const file of Object.keys(files)) {
      writeFileSync(join(root, file), `${files[file]}!`);
      expect(bundleSourceFingerprint(root), file).not.toBe(before);
      writeFileSync(join(root, file), files[file] ?? '');
    }
    writeFileSync(join(root, 'functions', 'handlers', 'new.ts'), '');
    expect(bundleSourceFingerprint(root), 'a new file').not.toBe(before);
    rmSync(join(root, 'functions', 'handlers', 'new.ts'));
    writeFileSync(join(root, 'docs', 'notes.md'), 'not bundled');
    expect(bundleSourceFingerprint(root)).toBe(before);
  });
});
