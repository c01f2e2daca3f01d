import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLE_SETTINGS, esbuildOptions } from '../../infra/bundling/bundleSettings';
import { PROJECT_ROOT } from '../../infra/bundling/handlerCatalog';
import { LAMBDA_STUBS, exportedNames, lambdaStubsPlugin, throwingModule } from '../../infra/bundling/lambdaStubs';
import { compactSdkErrors, parseSdkErrors } from '../../infra/bundling/sdkErrorClasses';
import LRUCache from '../../infra/bundling/stubs/lruCache';
import { EXTENSIONS_BY_MIME_TYPE, MIME_TYPES_BY_EXTENSION, detectExtension, detectMimeType } from '../../infra/bundling/stubs/mailMimeTypes';

const nodemailerTypes = createRequire(import.meta.url)('nodemailer/lib/mime-funcs/mime-types') as {
  detectMimeType(filename?: string): string;
  detectExtension(mimeType?: string): string;
};

describe("the stub of nodemailer's MIME-type table", () => {
  const filenames = [...MIME_TYPES_BY_EXTENSION.keys()].flatMap((ext) => [ext, `chart.${ext}`, `CHART.${ext.toUpperCase()}`, `a/b/c.${ext}?x=1`]);

  it.each(filenames)('detects the type of %s as nodemailer does', (filename) => {
    expect(detectMimeType(filename)).toBe(nodemailerTypes.detectMimeType(filename));
  });

  it.each([...EXTENSIONS_BY_MIME_TYPE.keys(), 'TEXT/HTML', ' image/png ', 'text/x-unknown', 'application/x-unknown'])('gives %s the extension nodemailer gives it', (type) => {
    expect(detectExtension(type)).toBe(nodemailerTypes.detectExtension(type));
  });

  it('falls back to the same defaults', () => {
    for (const empty of [undefined, '']) {
      expect(detectMimeType(empty)).toBe(nodemailerTypes.detectMimeType(empty));
      expect(detectExtension(empty)).toBe(nodemailerTypes.detectExtension(empty));
    }
    expect(detectMimeType('archive.unknownext')).toBe(nodemailerTypes.detectMimeType('archive.unknownext'));
  });
});

describe("the stub of mnemonist's LRU cache", () => {
  const MnemonistLru = createRequire(import.meta.url)('mnemonist/lru-cache') as new (capacity: number) => {
    get(k: string): unknown;
    peek(k: string): unknown;
    has(k: string): boolean;
    set(k: string, v: unknown): unknown;
    clear(): void;
    size: number;
  };

  it('answers a random sequence of calls exactly as mnemonist does', () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    const ours = new LRUCache<string, number>(5);
    const theirs = new MnemonistLru(5);
    for (let i = 0; i < 2_000; i++) {
      const key = `k${random(9)}`;
      const op = random(10);
      if (op < 4) expect(ours.get(key), `get ${key} at ${i}`).toBe(theirs.get(key));
      else if (op < 6) expect(ours.peek(key), `peek ${key} at ${i}`).toBe(theirs.peek(key));
      else if (op < 7) expect(ours.has(key), `has ${key} at ${i}`).toBe(theirs.has(key));
      else if (op < 9) {
        ours.set(key, i);
        theirs.set(key, i);
      } else {
        ours.clear();
        theirs.clear();
      }
      expect(ours.size).toBe(theirs.size);
    }
  });
});

describe('throwing stand-ins (zod JSON Schema generation)', () => {
  it.each(['zod/v4/core/to-json-schema.js', 'zod/v4/core/json-schema-processors.js'])('%s: every export of the real module, each throwing', async (module) => {
    const file = join(PROJECT_ROOT, 'node_modules', module);
    const real = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const names = exportedNames(readFileSync(file, 'utf8'));
    expect(names.sort()).toEqual(Object.keys(real).sort());
    const stub = throwingModule(module, readFileSync(file, 'utf8'));
    for (const name of names) expect(stub).toContain(`export const ${name} = unavailable;`);
  });

  it('leaves parsing working and makes JSON Schema generation fail clearly in a bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sentinel-stub-zod-'));
    try {
      const result = await build(esbuildOptions(join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'zodInBundle.ts'), dir, []));
      const inputs = Object.keys(result.metafile?.inputs ?? {});
      expect(inputs.some((i) => i.startsWith('sentinel-lambda-stub:') && i.endsWith('zod/v4/core/to-json-schema.js'))).toBe(true);
      expect(inputs.filter((i) => i.endsWith('zod/v4/core/to-json-schema.js') && !i.startsWith('sentinel-lambda-stub:'))).toEqual([]);
      const run = spawnSync(process.execPath, [join(dir, BUNDLE_SETTINGS.outFile)], { encoding: 'utf8' });
      expect(JSON.parse(run.stdout)).toEqual({
        ok: { a: 'xy', n: 3 },
        bad: 'too_small',
        generated: 'zod/v4/core/json-schema-processors.js is not part of the Lambda bundles (infra/bundling/lambdaStubs.ts)',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the AWS SDK clients' exception classes and package.json", () => {
  const clients = ['client-dynamodb', 'client-kms', 'client-lambda', 'client-secrets-manager', 'client-ses', 'client-sqs'];

  it.each(clients)('%s: every class of models/errors.js is parsed, and exported by the compact module', (client) => {
    const source = readFileSync(join(PROJECT_ROOT, 'node_modules', '@aws-sdk', client, 'dist-es', 'models', 'errors.js'), 'utf8');
    const parsed = parseSdkErrors(source) ?? expect.fail(`${client}: not in the generated shape`);
    expect(parsed.classes.map((c) => c.className)).toEqual([...source.matchAll(/^export class (\w+)/gm)].map((m) => m[1]));
    const compact = compactSdkErrors(source) ?? expect.fail(client);
    for (const { className } of parsed.classes) expect(compact).toContain(`export const ${className} = __sdkError(`);
    expect(compact.length).toBeLessThan(source.length / 2);
  });

  it('leaves a module in any other shape alone (the bundle then keeps the real one)', () => {
    const source = readFileSync(join(PROJECT_ROOT, 'node_modules', '@aws-sdk', 'client-ses', 'dist-es', 'models', 'errors.js'), 'utf8');
    expect(compactSdkErrors(source.replace('        this.Name = opts.Name;', '        this.Name = opts.Name ?? "x";'))).toBeUndefined();
    expect(compactSdkErrors(source.replace('    $fault = "client";', '    $fault = "client";\n    extra = 1;'))).toBeUndefined();
  });

  it('a bundle with the stubs makes the same exceptions and user agent as one without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sentinel-stub-sdk-errors-'));
    try {
      const entry = join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'sdkErrorsInBundle.ts');
      const stubbed = await build(esbuildOptions(entry, join(dir, 'stubbed'), []));
      const derived = Object.keys(stubbed.metafile?.inputs ?? {}).filter((i) => i.startsWith('sentinel-lambda-stub:'));
      expect(derived.filter((i) => i.endsWith('/models/errors.js'))).toHaveLength(clients.length);
      expect(derived.filter((i) => i.endsWith('/package.json'))).toHaveLength(clients.length);
      const withoutSdkStubs = LAMBDA_STUBS.filter((s) => !('derived' in s.replacement));
      await build({ ...esbuildOptions(entry, join(dir, 'real'), []), plugins: [lambdaStubsPlugin(PROJECT_ROOT, withoutSdkStubs)] });
      const print = (bundle: string) => {
        const run = spawnSync(process.execPath, [join(dir, bundle, BUNDLE_SETTINGS.outFile)], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
        expect(run.status, run.stderr).toBe(0);
        return JSON.parse(run.stdout) as Record<string, { errors: unknown[]; userAgent: string[][] }>;
      };
      const real = print('real');
      expect(Object.keys(real)).toHaveLength(clients.length);
      for (const client of Object.values(real)) {
        expect(client.errors.length).toBeGreaterThan(5);
        expect(client.userAgent[0]?.[1]).toMatch(/^\d+\.\d+\.\d+/);
      }
      // Minified, the real classes lose their names (no `keepNames`); the compact ones keep theirs.
      type Printed = { exportName: string; className: string; constructorName: string };
      const withoutClassNames = (printed: Record<string, { errors: unknown[]; userAgent: string[][] }>) =>
        Object.fromEntries(Object.entries(printed).map(([client, { errors, userAgent }]) => [client, { userAgent, errors: errors.map((e) => ({ ...(e as Printed), className: undefined, constructorName: undefined })) }]));
      const stubbedOut = print('stubbed');
      expect(withoutClassNames(stubbedOut)).toEqual(withoutClassNames(real));
      for (const { errors } of Object.values(stubbedOut)) for (const e of errors as Printed[]) expect([e.className, e.constructorName]).toEqual([e.exportName, e.exportName]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
