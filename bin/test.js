// `npm test`: `vitest run` (arguments passed on), and beside it the checks (`npm run checks`: typecheck,
// ESLint, Prettier, dependency rules) on CPU the tests leave idle: on Linux under the SCHED_IDLE policy
// (`chrt --idle 0`), elsewhere at the lowest priority. The tests leave a sixth to a quarter of two
// cores idle while they wait on services, browsers and child processes; the checks use that instead of
// running first. Their output is printed whole when they end. Exits non-zero when either failed.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);

/** Runs a command as a child; resolves with its exit code (1 when it could not start or a signal ended it). */
function run(command, args, options, onSpawn = () => {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, options);
    onSpawn(child);
    child.on('error', (error) => {
      console.error(`npm test: could not start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => child.kill(signal));
  });
}

/** The command line that runs `argv` only on idle CPU where the platform offers it (Linux's `chrt`), else `argv` itself. */
function onIdleCpu(argv) {
  const chrt = process.platform === 'linux' && spawnSync('chrt', ['--idle', '0', 'true']).status === 0;
  return chrt ? { command: 'chrt', args: ['--idle', '0', ...argv], idle: true } : { command: argv[0], args: argv.slice(1), idle: false };
}

const npm = process.env['npm_execpath'];
if (!npm) {
  console.error('npm test: run it as `npm test` (npm_execpath is not set)');
  process.exit(2);
}

let checksOutput = '';
const checksLine = onIdleCpu([process.execPath, npm, 'run', '--silent', 'checks']);
const checks = run(checksLine.command, checksLine.args, { stdio: ['ignore', 'pipe', 'pipe'] }, (child) => {
  if (!checksLine.idle && child.pid !== undefined) {
    try {
      setPriority(child.pid, 19);
    } catch (error) {
      console.error(`npm test: the checks run at normal priority (${error.message})`);
    }
  }
  child.stdout.on('data', (chunk) => (checksOutput += chunk));
  child.stderr.on('data', (chunk) => (checksOutput += chunk));
}).then((code) => {
  const verdict = code === 0 ? 'passed' : `FAILED (exit ${code})`;
  process.stdout.write(`\n── checks (typecheck, eslint, prettier, dependency rules) ${verdict} after ${seconds()} s ──\n${checksOutput}\n`);
  return code;
});

const vitestPackage = require.resolve('vitest/package.json');
const vitest = join(dirname(vitestPackage), require(vitestPackage).bin.vitest);
const tests = run(process.execPath, [vitest, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });

const [testsCode, checksCode] = await Promise.all([tests, checks]);
if (checksCode !== 0) console.error(`npm test: the checks failed (exit ${checksCode}); their output is above`);
process.exit(testsCode !== 0 ? testsCode : checksCode);
