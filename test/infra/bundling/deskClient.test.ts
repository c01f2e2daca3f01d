import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deskAssetsOf, DESK_ENTRIES } from '../../../functions/web/desk/deskAssets';
import { buildDeskClient, DESK_SCRIPT_BUDGET_GZIP } from '../../../infra/bundling/deskClient';

describe('the desk client', () => {
  const built = buildDeskClient();

  it('keeps every page within the 60 KB gzipped JavaScript budget (a page loads one script)', () => {
    for (const entry of ['chart.js', 'passkeys.js'] as const) {
      const size = gzipSync(built[entry], { level: 9 }).length;
      expect(size, entry).toBeGreaterThan(0);
      expect(size, entry).toBeLessThanOrEqual(DESK_SCRIPT_BUDGET_GZIP);
    }
  });

  it('bundles uPlot into the chart script and its stylesheet into the chart stylesheet', () => {
    expect(built['chart.js']).toContain('uplot');
    expect(built['chart.css']).toContain('.uplot');
  });

  it('serves each file under a name that changes with its content', () => {
    const assets = deskAssetsOf(built);
    for (const entry of DESK_ENTRIES) {
      const file = assets.fileOf(entry);
      expect(file, entry).toMatch(new RegExp(`^${entry.split('.')[0]}\\.[0-9a-f]{12}\\.${entry.split('.')[1]}$`));
      expect(assets.get(file!)?.body).toBe(built[entry]);
    }
    const changed = deskAssetsOf({ ...built, 'chart.js': `${built['chart.js']};` });
    expect(changed.fileOf('chart.js')).not.toBe(assets.fileOf('chart.js'));
    expect(changed.fileOf('chart.css')).toBe(assets.fileOf('chart.css'));
  });
});
