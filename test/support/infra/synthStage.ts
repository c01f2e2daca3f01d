import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
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
 * One cloud-assembly directory per test process: `AssetStaging` caches bundles by source, options
 * and output directory, so every stage synthesized in this process bundles each handler once.
 */
let outdir: string | undefined;

/**
 * Synthesizes one stage in-process, the way `cdk synth -c stage=<stage>` does (real esbuild
 * bundling, cdk-nag plugin), and returns its templates. Throws when validation fails. The bundles
 * come from the test bundle cache (`bundleCache.ts`) when an earlier synth of this checkout built
 * them from the same sources and settings (the `cdk synth` CLI test takes them from there too).
 * `schemaValidation: false` skips CDK's built-in CloudFormation schema check (slow to load; the
 * stage synth tests keep it on). `mutate` changes the stacks before synthesis.
 */
export function synthStage(
  context: Record<string, unknown>,
  options: { schemaValidation?: boolean; mutate?: (stacks: SentinelStacks) => void } = {},
): SynthResult {
  outdir ??= mkdtempSync(join(tmpdir(), 'sentinel-cdk-'));
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
    const json = byPart((name) => assembly.getStackByName(name).template as TemplateJson);
    const templates = byPart((name) => Template.fromJSON(assembly.getStackByName(name).template as Record<string, unknown>));
    const annotations = assembly.stacks.flatMap((stack) =>
      stack.messages.filter((m) => m.level !== 'info').map((m) => ({ level: String(m.level), path: m.id, message: String(m.entry.data) })),
    );
    return { stacks, assembly, templates, json, validationReport, annotations };
  } finally {
    if (previous === undefined) delete process.env['CDK_VALIDATION'];
    else process.env['CDK_VALIDATION'] = previous;
  }
}

/** Removes this process's cloud-assembly directory. */
export function cleanUpSynth(): void {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
  outdir = undefined;
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
