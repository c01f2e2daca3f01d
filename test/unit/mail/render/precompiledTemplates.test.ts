import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writePrecompiledTemplates } from '../../../../infra/bundling/precompileTemplates';
import { rendererFor } from '../../../../functions/mail/render/emailRenderer';
import { EmailRenderError } from '../../../../functions/mail/errors';
import { loadPrecompiledTemplates } from '../../../../functions/mail/render/precompiledTemplates';
import { createEmailRenderer } from '../../../../functions/mail/render/render';
import { defaultTemplateRoot } from '../../../../functions/mail/render/templates';
import { EMAIL_KINDS, type DailyReportView } from '../../../../functions/mail/render/views';
import { TIME_ZONE, dailyReport, views } from '../../../../local/mailSamples';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function templatesCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'sentinel-precompiled-'));
  roots.push(root);
  cpSync(defaultTemplateRoot(), root, { recursive: true });
  return root;
}

describe('precompiled templates', () => {
  it('render every email exactly as the templates compiled from source', async () => {
    const root = templatesCopy();
    writePrecompiledTemplates(root);
    const precompiled = rendererFor(await loadPrecompiledTemplates(root));
    const fromSource = createEmailRenderer({ templateRoot: root });
    const stale: DailyReportView = { ...dailyReport, status: { state: 'stale', reason: 'no answer', lastPointAtMs: null }, day: null, delegates: [] };
    for (const kind of EMAIL_KINDS) {
      expect(precompiled.render(kind, views[kind] as never, { timeZone: TIME_ZONE }), kind).toEqual(
        fromSource.render(kind, views[kind] as never, { timeZone: TIME_ZONE }),
      );
    }
    expect(precompiled.render('daily-report', stale, { timeZone: 'America/New_York' })).toEqual(
      fromSource.render('daily-report', stale, { timeZone: 'America/New_York' }),
    );
  });

  it('are an EmailRenderError naming the directory when the module is missing', async () => {
    const root = templatesCopy();
    await expect(loadPrecompiledTemplates(root)).rejects.toThrow(EmailRenderError);
    await expect(loadPrecompiledTemplates(root)).rejects.toThrow(`cannot load precompiled templates from ${root}`);
  });
});
