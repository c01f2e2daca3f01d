import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the infra tier's cloud assemblies are written under (one subfolder per worker, see `synthStage`). */
    synthRoot: string;
  }
}

/**
 * Creates the folder the infra tier's synths write to, once per run, and removes it when the run
 * ends: a worker's synths are shared by its test files (`synthStage`), so no file removes them.
 */
export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), 'sentinel-cdk-'));
  project.provide('synthRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
