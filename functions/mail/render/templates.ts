import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import Handlebars from 'handlebars';
import { EmailRenderError } from '../errors';
import { registerHelpers } from './helpers';
import { guardTemplate, type TemplateSet } from './templateSet';
import { EMAIL_KINDS, type EmailKind } from './views';

export { defaultTemplateRoot } from './templateRoot';
export type { EmailTemplates, TemplateSet } from './templateSet';

/** One template file as read: where it is (relative to the root), its text, and how it compiles. */
export interface TemplateSource {
  readonly file: string;
  readonly source: string;
  /** `*.text.hbs` and `*.subject.hbs` are not HTML-escaped; `*.html.hbs` escape every `{{ }}`. */
  readonly noEscape: boolean;
}

/** Every template under a root: layouts and partials by the name templates use, and each email's parts. */
export interface TemplateSources {
  /** `partials/metric-table.html.hbs` → `metric-table.html`; `layouts/base.text.hbs` → `layouts/base.text`. */
  readonly partials: Readonly<Record<string, TemplateSource>>;
  readonly emails: Readonly<Record<EmailKind, Readonly<Record<'subject' | 'html' | 'text', TemplateSource>>>>;
}

/** How every template is compiled, from source here and ahead of time for the Lambda bundles. */
export function compileOptions(source: TemplateSource): { noEscape: boolean; strict: true } {
  return { noEscape: source.noEscape, strict: true };
}

function listHbs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.hbs'))
    .map((e) => join(e.parentPath, e.name));
}

function read(root: string, file: string): TemplateSource {
  try {
    return { file: relative(root, file), source: readFileSync(file, 'utf8'), noEscape: !file.endsWith('.html.hbs') };
  } catch (err) {
    throw new EmailRenderError(`cannot read template ${file}`, { cause: err });
  }
}

/** Reads every layout, partial and email template under `root`. */
export function readTemplateSources(root: string): TemplateSources {
  const partials: Record<string, TemplateSource> = {};
  for (const [sub, prefix] of [
    ['partials', ''],
    ['layouts', 'layouts/'],
  ] as const) {
    const dir = join(root, sub);
    for (const file of listHbs(dir))
      partials[
        prefix +
          relative(dir, file)
            .split(sep)
            .join('/')
            .replace(/\.hbs$/, '')
      ] = read(root, file);
  }
  const emails = Object.fromEntries(
    EMAIL_KINDS.map((kind) => {
      const part = (name: string) => read(root, join(root, 'emails', `${kind}.${name}.hbs`));
      return [kind, { subject: part('subject'), html: part('html'), text: part('text') }];
    }),
  ) as TemplateSources['emails'];
  return { partials, emails };
}

/**
 * Reads and compiles every layout, partial and email under `root` once (Handlebars in strict
 * mode); a template that does not compile throws `EmailRenderError` naming it.
 */
export function loadTemplates(root: string): TemplateSet {
  const hbs = Handlebars.create();
  registerHelpers(hbs);
  const compile = (t: TemplateSource): Handlebars.TemplateDelegate => {
    try {
      hbs.parse(t.source); // surfaces syntax errors now; compile() itself is lazy
      return guardTemplate(t.file, hbs.compile(t.source, compileOptions(t)));
    } catch (err) {
      throw new EmailRenderError(`template ${t.file} does not compile`, { cause: err });
    }
  };
  const sources = readTemplateSources(root);
  for (const [name, source] of Object.entries(sources.partials)) hbs.registerPartial(name, compile(source));
  const entries = EMAIL_KINDS.map((kind) => {
    const parts = sources.emails[kind];
    return [kind, { subject: compile(parts.subject), html: compile(parts.html), text: compile(parts.text) }] as const;
  });
  return Object.fromEntries(entries) as TemplateSet;
}
