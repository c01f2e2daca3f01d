import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve('.');
const LAUNCHER = pathToFileURL(join(REPO, 'bin/bundledEntry.js')).href;
mkdirSync(join(REPO, '.cache'), { recursive: true });
const FIXTURE = mkdtempSync(join(REPO, '.cache', 'bundled-entry-'));
const ENTRY = relative(REPO, join(FIXTURE, 'entry.ts'));
/** The entry's cache folder: its path from the project root, extension dropped, slashes as dashes. */
const CACHE = join(REPO, 'node_modules/.cache/portfolio-sentinel', ENTRY.replace(/\.ts$/, '').replace(/\//g, '-'));

const writeDep = (value: number) => writeFileSync(join(FIXTURE, 'dep.ts'), `export const value: number = ${value};\nexport const depUrl = import.meta.url;\n`);
writeFileSync(
  join(FIXTURE, 'entry.ts'),
  [
    "import Handlebars from 'handlebars/runtime';",
    "import { depUrl, value } from './dep';",
    'export const result = { value, depUrl, url: import.meta.url, handlebars: typeof Handlebars.create };',
    '',
  ].join('\n'),
);
writeDep(1);

const SCRIPT = `const { importEntry } = await import(${JSON.stringify(LAUNCHER)}); console.log(JSON.stringify((await importEntry(${JSON.stringify(ENTRY)})).result));`;
const ARGS = ['--input-type=module', '-e', SCRIPT];

interface Run {
  readonly code: number | null;
  readonly result: { value: number; depUrl: string; url: string; handlebars: string } | undefined;
  readonly stderr: string;
}

const parsed = (code: number | null, stdout: string, stderr: string): Run => ({
  code,
  result: code === 0 ? (JSON.parse(stdout) as Run['result']) : undefined,
  stderr,
});

/** Imports the fixture entry through the launcher in a new Node process. */
function run(env: NodeJS.ProcessEnv = {}): Run {
  const ran = spawnSync(process.execPath, ARGS, { cwd: REPO, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  return parsed(ran.status, ran.stdout, ran.stderr);
}

function runAsync(): Promise<Run> {
  const child = spawn(process.execPath, ARGS, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  return new Promise((done) => child.on('close', (code) => done(parsed(code, stdout, stderr))));
}

/** The build folder the entry's bundle is now taken from. */
const currentBuild = (): string => (JSON.parse(readFileSync(join(CACHE, 'current.json'), 'utf8')) as { dir: string }).dir;

describe('bin/bundledEntry.js: an entry run from its freshness-checked bundle', () => {
  afterAll(() => {
    rmSync(FIXTURE, { recursive: true, force: true });
    rmSync(CACHE, { recursive: true, force: true });
  });

  it('builds a bundle where each module keeps its own import.meta.url and a package Node cannot resolve is bundled', () => {
    const first = run();
    expect(first.stderr).toBe('');
    expect(first.result).toEqual({
      value: 1,
      depUrl: pathToFileURL(join(FIXTURE, 'dep.ts')).href,
      url: pathToFileURL(join(REPO, ENTRY)).href,
      handlebars: 'function',
    });
    expect(currentBuild()).toMatch(/^build-/);
  });

  it('reuses the bundle while no input changed, and builds it again after an edit or a touch', () => {
    const built = currentBuild();
    expect(run().result?.value).toBe(1);
    expect(currentBuild()).toBe(built);

    writeDep(2);
    expect(run().result?.value).toBe(2);
    const edited = currentBuild();
    expect(edited).not.toBe(built);

    const later = new Date(Date.now() + 5_000);
    utimesSync(join(FIXTURE, 'entry.ts'), later, later);
    expect(run().result?.value).toBe(2);
    expect(currentBuild()).not.toBe(edited);
  });

  it('keeps the last good bundle when a source does not build, and says it runs through tsx instead', () => {
    const good = currentBuild();
    writeFileSync(join(FIXTURE, 'dep.ts'), 'export const value: number = ;\n');
    const broken = run();
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain(`sentinel: could not bundle ${ENTRY}`);
    expect(currentBuild()).toBe(good);

    writeDep(3);
    expect(run().result?.value).toBe(3);
    expect(currentBuild()).not.toBe(good);
  });

  it('runs through tsx with SENTINEL_BUNDLE=off, leaving the bundle alone', () => {
    const kept = currentBuild();
    writeDep(4);
    const off = run({ SENTINEL_BUNDLE: 'off' });
    expect(off.stderr).toBe('');
    expect(off.result).toMatchObject({ value: 4, depUrl: pathToFileURL(join(FIXTURE, 'dep.ts')).href });
    expect(currentBuild()).toBe(kept);
  });

  it('serves two processes that find the bundle stale at once, each the new code', async () => {
    writeDep(5);
    const both = await Promise.all([runAsync(), runAsync()]);
    expect(both.map((r) => [r.code, r.result?.value, r.stderr])).toEqual([
      [0, 5, ''],
      [0, 5, ''],
    ]);
    expect(run().result?.value).toBe(5);
  });
});
