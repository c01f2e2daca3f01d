import type { Reporter, TestModule } from 'vitest/node';

/** Columns of one file's line, in seconds. */
interface FileTimes {
  readonly file: string;
  /** Starting the worker's environment and the runner (`prepare` + environment setup). */
  readonly start: number;
  /** Importing the test module and what it imports, suite callbacks included (vitest's "collect"/"import"). */
  readonly importing: number;
  /** Tests and hooks. */
  readonly tests: number;
}

const seconds = (ms: number): number => Math.round(ms / 100) / 10;

/**
 * With `SLOWEST=N` in the environment, ends a run with its N slowest test files (all of them
 * with `SLOWEST=all`): per file the seconds spent starting, importing and in tests and hooks,
 * slowest total first, and the sums per tier. Silent otherwise. E.g.
 * `SLOWEST=15 npx vitest run test/infra`.
 */
export default class SlowFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const wanted = process.env['SLOWEST'];
    if (wanted === undefined || wanted === '') return;
    const limit = wanted === 'all' ? Infinity : Number(wanted);
    const rows: FileTimes[] = testModules.map((module) => {
      const d = module.diagnostic();
      return {
        file: `${module.project.name}:${module.relativeModuleId}`,
        start: seconds(d.prepareDuration + d.environmentSetupDuration),
        importing: seconds(d.collectDuration + d.setupDuration),
        tests: seconds(d.duration),
      };
    });
    const total = (r: Omit<FileTimes, 'file'>): number => r.start + r.importing + r.tests;
    rows.sort((a, b) => total(b) - total(a));
    const line = (r: Omit<FileTimes, 'file'>, label: string): string =>
      [total(r), r.start, r.importing, r.tests].map((n) => n.toFixed(1).padStart(7)).join(' ') + `  ${label}`;
    const out = ['', `slowest files (s): ${'total'.padStart(7)} ${'start'.padStart(7)} ${'import'.padStart(7)} ${'tests'.padStart(7)}`];
    for (const r of rows.slice(0, Number.isFinite(limit) ? limit : rows.length)) out.push(`                   ${line(r, r.file)}`);
    const tiers = new Map<string, { start: number; importing: number; tests: number }>();
    for (const r of rows) {
      const tier = r.file.slice(0, r.file.indexOf(':'));
      const sum = tiers.get(tier) ?? { start: 0, importing: 0, tests: 0 };
      tiers.set(tier, { start: sum.start + r.start, importing: sum.importing + r.importing, tests: sum.tests + r.tests });
    }
    for (const [tier, sum] of tiers) out.push(`              sum  ${line(sum, `${tier} (${rows.filter((r) => r.file.startsWith(`${tier}:`)).length} files)`)}`);
    process.stdout.write(`${out.join('\n')}\n`);
  }
}
