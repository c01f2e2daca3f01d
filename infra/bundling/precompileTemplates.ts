import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { PRECOMPILED_TEMPLATES_FILE } from '../../functions/mail/render/precompiledTemplates';
import { compileOptions, readTemplateSources, type TemplateSource } from '../../functions/mail/render/templates';
import { EMAIL_KINDS } from '../../functions/mail/render/views';

function spec(source: TemplateSource): string {
  return String(Handlebars.precompile(source.source, compileOptions(source)));
}

/**
 * The source of the ES module holding every template under `root` precompiled (the shape of
 * `PrecompiledTemplates`), with the options and names the renderer compiles them with from source.
 */
export function precompiledTemplatesModule(root: string): string {
  const sources = readTemplateSources(root);
  const partials = Object.entries(sources.partials).map(([name, source]) => `    ${JSON.stringify(name)}: ${spec(source)},`);
  const emails = EMAIL_KINDS.map((kind) => {
    const parts = sources.emails[kind];
    return `    ${JSON.stringify(kind)}: { subject: ${spec(parts.subject)}, html: ${spec(parts.html)}, text: ${spec(parts.text)} },`;
  });
  return [
    '// Generated from the templates in this directory when the bundle was built (infra/bundling/precompileTemplates.ts).',
    'export default {',
    '  partials: {',
    ...partials,
    '  },',
    '  emails: {',
    ...emails,
    '  },',
    '};',
    '',
  ].join('\n');
}

/** Writes `precompiled.mjs` into the template root `root` (a bundle's `templates/`). */
export function writePrecompiledTemplates(root: string): void {
  writeFileSync(join(root, PRECOMPILED_TEMPLATES_FILE), precompiledTemplatesModule(root));
}
