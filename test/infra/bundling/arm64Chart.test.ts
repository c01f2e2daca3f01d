import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { renderChartPng } from '../../../functions/mail/chart/chart';
import { BUNDLE_SETTINGS, bundleCopies, esbuildOptions } from '../../../infra/bundling/bundleSettings';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';
import { TIME_ZONE, curves } from '../../../local/mailSamples';
import { CHART_CASES } from '../fixtures/chartCases';

/**
 * How to run Node on Linux ARM64 here, e.g. `qemu-aarch64-static -L /arm64-root /arm64-root/usr/bin/node`
 * (see docs/benchmarks.md); without it, or on an ARM64 host, there is nothing to compare across.
 */
const ARM64_NODE = process.env['SENTINEL_ARM64_NODE']?.trim().split(/\s+/) ?? [];
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'sentinel-arm64-chart-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the chart on ARM64', () => {
  it.skipIf(ARM64_NODE.length === 0 || process.arch === 'arm64')(
    "renders byte for byte what this host's addon renders, from the renderers' ARM64 asset (SENTINEL_ARM64_NODE)",
    async () => {
      const out = join(work, 'bundle');
      await build(esbuildOptions(join(PROJECT_ROOT, 'test', 'infra', 'fixtures', 'chartPngs.ts'), out, ['@resvg/resvg-js']));
      for (const { from, to } of bundleCopies('notify', 'arm64')) {
        mkdirSync(dirname(join(out, to)), { recursive: true });
        cpSync(resolve(PROJECT_ROOT, from), join(out, to), { recursive: true });
      }
      const [command = '', ...args] = ARM64_NODE;
      const { stdout } = await run(command, [...args, '-p', 'process.arch'], { encoding: 'utf8' });
      expect(stdout.trim()).toBe('arm64');
      const arm64 = JSON.parse(
        (await run(command, [...args, join(out, BUNDLE_SETTINGS.outFile)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })).stdout,
      ) as Record<string, string>;
      for (const { name, days, scale } of CHART_CASES) {
        const here = renderChartPng({ ...curves(days), timeZone: TIME_ZONE }, { scale });
        expect(Buffer.from(arm64[name] ?? '', 'base64').equals(here), name).toBe(true);
      }
    },
    600_000,
  );
});
