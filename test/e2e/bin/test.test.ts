import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve('.');
mkdirSync(join(REPO, '.cache'), { recursive: true });
const FIXTURE = mkdtempSync(join(REPO, '.cache', 'npm-test-'));
/** One quick unit test file for the nested vitest to run. */
const SOME_TEST = 'test/unit/domain/account.test.ts';

/**
 * Stands in for npm: answers only `npm run --silent checks`, printing its own scheduling policy
 * (as `chrt -p` reports it) and exiting with `STUB_CHECKS_EXIT`.
 */
const STUB_NPM = join(FIXTURE, 'npm-cli.mjs');
writeFileSync(
  STUB_NPM,
  [
    "import { spawnSync } from 'node:child_process';",
    "if (process.argv.slice(2).join(' ') !== 'run --silent checks') { console.error('unexpected npm call: ' + process.argv.slice(2).join(' ')); process.exit(9); }",
    "const policy = spawnSync('chrt', ['-p', String(process.pid)], { encoding: 'utf8' }).stdout ?? '';",
    "console.log('stub checks ran; ' + policy.trim());",
    "process.exit(Number(process.env.STUB_CHECKS_EXIT ?? '0'));",
    '',
  ].join('\n'),
);

interface Run {
  readonly code: number | null;
  readonly output: string;
}

/** `npm test <args>` as npm runs it (`node bin/test.js`), with the stub standing in for npm. */
function npmTest(args: readonly string[], checksExit: number): Promise<Run> {
  // The nested vitest must not take this worker's variables for its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'TEST' && k !== 'NODE_ENV'));
  const child = spawn(process.execPath, ['bin/test.js', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, npm_execpath: STUB_NPM, STUB_CHECKS_EXIT: String(checksExit), NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, output })));
}

const chrtIdle = process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true']).status === 0;

afterAll(() => rmSync(FIXTURE, { recursive: true, force: true }));

describe('bin/test.js: npm test runs vitest and, beside it on idle CPU, the checks', () => {
  it('passes when both pass, runs the checks under SCHED_IDLE, and prints their output under a verdict line', async () => {
    const run = await npmTest([SOME_TEST], 0);
    expect(run.output).toMatch(/Test Files\s+1 passed/);
    expect(run.output).toMatch(/── checks \(typecheck, eslint, prettier, dependency rules\) passed after \d+ s ──\n+stub checks ran;/);
    if (chrtIdle) expect(run.output).toContain('SCHED_IDLE');
    expect(run.code).toBe(0);
  });

  it('fails when a check fails, though every test passed, and says so after the checks output', async () => {
    const run = await npmTest([SOME_TEST], 3);
    expect(run.output).toMatch(/Test Files\s+1 passed/);
    expect(run.output).toMatch(/checks \(typecheck, eslint, prettier, dependency rules\) FAILED \(exit 3\)/);
    expect(run.output).toContain('npm test: the checks failed (exit 3); their output is above');
    expect(run.code).toBe(3);
  });

  it("fails with vitest's own code when the tests fail, though the checks passed", async () => {
    const run = await npmTest(['test/unit/no-such-file-here.test.ts'], 0);
    expect(run.output).toMatch(/No test files found/);
    expect(run.output).toMatch(/checks .* passed/);
    expect(run.code).toBe(1);
  });
});
