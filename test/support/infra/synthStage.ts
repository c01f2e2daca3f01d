import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { inject } from 'vitest';
import { PROJECT_ROOT } from '../../../infra/bundling/handlerEntry';
import { buildSentinelApp, type SentinelStacks } from '../../../infra/sentinelApp';
import { useBundleCache } from './bundleCache';

export type StackPart = 'keys' | 'data' | 'messaging' | 'web' | 'compute' | 'monitoring';
export const STACK_PARTS: readonly StackPart[] = ['keys', 'data', 'messaging', 'web', 'compute', 'monitoring'];

/** A template as plain JSON, for assertions the `Template` API has no matcher for. */
export interface TemplateJson {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;
  Outputs?: Record<string, { Value: unknown; Export?: unknown }>;
  Parameters?: Record<string, { Type: string; Default?: unknown }>;
}

export interface SynthResult {
  readonly stacks: SentinelStacks;
  readonly assembly: CloudAssembly;
  readonly templates: Readonly<Record<StackPart, Template>>;
  readonly json: Readonly<Record<StackPart, TemplateJson>>;
  /** `validation-report.json` of the synth: cdk-nag and CloudFormation findings left unacknowledged. */
  readonly validationReport: { pluginReports: unknown[] };
  /** Warnings and errors annotated on any construct. */
  readonly annotations: readonly { level: string; path: string; message: string }[];
}

/** Context every synth starts from: `cdk.json`'s, so tests see the feature flags the CLI sees. */
const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

/**
 * One cloud-assembly directory per test process, under the run's folder (`synthDirSetup.ts`, which
 * removes it): `AssetStaging` caches bundles by source, options and output directory, so every
 * stage synthesized in this process bundles each handler once.
 */
let outdir: string | undefined;

/** This process's synths without `mutate`, by context and options: test files of one worker share them. */
const synthesized = new Map<string, SynthResult>();

/**
 * Synthesizes one stage in-process, the way `cdk synth -c stage=<stage>` does (real esbuild
 * bundling, cdk-nag plugin), and returns its templates. Throws when validation fails. The bundles
 * come from the test bundle cache (`bundleCache.ts`) when an earlier synth of this checkout built
 * them from the same sources and settings (the `cdk synth` CLI test takes them from there too).
 * `schemaValidation: false` skips CDK's built-in CloudFormation schema check (slow to load; the
 * stage synth tests keep it on). `mutate` changes the stacks before synthesis.
 *
 * A synth without `mutate` is done once per test process for a given context and options, and the
 * same result is returned to every later call (test files of a worker share it): its templates'
 * JSON and its validation report are frozen, so a test that changed them would throw instead of
 * changing what another file sees.
 */
export function synthStage(
  context: Record<string, unknown>,
  options: { schemaValidation?: boolean; mutate?: (stacks: SentinelStacks) => void } = {},
): SynthResult {
  if (options.mutate) return synthOnce(context, options);
  const key = JSON.stringify([context, options.schemaValidation !== false]);
  let result = synthesized.get(key);
  if (!result) {
    result = synthOnce(context, options);
    synthesized.set(key, result);
  }
  return result;
}

function synthOnce(context: Record<string, unknown>, options: { schemaValidation?: boolean; mutate?: (stacks: SentinelStacks) => void }): SynthResult {
  outdir ??= mkdtempSync(join(inject('synthRoot'), 'worker-'));
  useBundleCache();
  const previous = process.env['CDK_VALIDATION'];
  if (options.schemaValidation === false) process.env['CDK_VALIDATION'] = 'false';
  try {
    const app = new App({ outdir, context: { ...CDK_JSON_CONTEXT, ...context } });
    const stacks = buildSentinelApp(app);
    options.mutate?.(stacks);
    const assembly = app.synth();
    const validationReport = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as SynthResult['validationReport'];
    const byPart = <T>(f: (stackName: string) => T): Record<StackPart, T> =>
      Object.fromEntries(STACK_PARTS.map((part) => [part, f(`${stacks.config.prefix}${part}`)])) as Record<StackPart, T>;
    const json = byPart((name) => deepFreeze(assembly.getStackByName(name).template as TemplateJson));
    const templates = byPart((name) => Template.fromJSON(assembly.getStackByName(name).template as Record<string, unknown>));
    const annotations = assembly.stacks.flatMap((stack) =>
      stack.messages.filter((m) => m.level !== 'info').map((m) => ({ level: String(m.level), path: m.id, message: String(m.entry.data) })),
    );
    return { stacks, assembly, templates, json, validationReport: deepFreeze(validationReport), annotations };
  } finally {
    if (previous === undefined) delete process.env['CDK_VALIDATION'];
    else process.env['CDK_VALIDATION'] = previous;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Context a testnet or beta synth needs at least (they refuse to synthesize without it). */
export function deployedStageContext(stage: 'testnet' | 'beta'): Record<string, string> {
  return { stage, account: '111122223333', region: 'eu-west-1', mailFrom: `alerts@${stage}.example.com`, alarmEmail: 'ops@example.com' };
}

/** Context the resource tests synthesize with: a created and an existing owner key, an alarm address. */
export const TEST_CONTEXT = {
  stage: 'devnet',
  ownerKeys: ['desk-a'],
  ownerKeyArns: ['arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab'],
  alarmEmail: 'ops@example.com',
  mailFrom: 'alerts@sentinel.example.com',
} as const;
