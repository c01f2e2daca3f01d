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
import { exportedNames, throwingModule } from '../../infra/bundling/lambdaStubs';
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
