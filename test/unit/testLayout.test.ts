import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/bundling/handlerEntry';

const TIERS = ['unit', 'integration', 'infra', 'e2e'] as const;
const TEST_ROOT = join(PROJECT_ROOT, 'test');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [relative(TEST_ROOT, path).split(sep).join('/')] : [];
  });
}

/** The source folder a test's folder mirrors: `functions/<dir>` or a top-level folder; the infra tier mirrors `infra/`. */
function mirrored(tier: string, dir: string): boolean {
  if (dir === '') return true;
  const candidates = tier === 'infra' ? [join('infra', dir)] : [join('functions', dir), dir];
  return candidates.some((candidate) => existsSync(join(PROJECT_ROOT, candidate)) && statSync(join(PROJECT_ROOT, candidate)).isDirectory());
}

describe('the test tree', () => {
  const files = testFiles(TEST_ROOT);

  it('holds every test file in one of the four tiers', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => !TIERS.some((tier) => file.startsWith(`${tier}/`)))).toEqual([]);
  });

  it('mirrors the source tree within each tier', () => {
    const unmirrored = files.filter((file) => {
      const [tier, ...rest] = file.split('/');
      return !mirrored(tier ?? '', rest.slice(0, -1).join('/'));
    });
    expect(unmirrored).toEqual([]);
  });
});
