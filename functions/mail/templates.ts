import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { EmailRenderError } from './errors';
import { registerHelpers } from './helpers';
import { EMAIL_KINDS, type EmailKind } from './views';

/** The three compiled parts of one email. */
export interface EmailTemplates {
  subject: Handlebars.TemplateDelegate;
  html: Handlebars.TemplateDelegate;
  text: Handlebars.TemplateDelegate;
}

/** Every email's compiled templates, by kind. */
export type TemplateSet = Readonly<Record<EmailKind, EmailTemplates>>;

/**
 * Where the templates live: `templates/` at the project root when running from source, or
 * `templates/` next to the bundled handler (the Lambda bundle copies it there).
 */
export function defaultTemplateRoot(): string {
  const candidates = [new URL('../../templates/', import.meta.url), new URL('./templates/', import.meta.url)];
  const found = candidates.map((u) => fileURLToPath(u)).find((dir) => existsSync(join(dir, 'emails')));
  if (!found) throw new EmailRenderError(`templates not found; looked in ${candidates.map((u) => fileURLToPath(u)).join(', ')}`);
  return found;
}

function listHbs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.hbs'))
    .map((e) => join(e.parentPath, e.name));
}

// `partials/metric-table.html.hbs` → `metric-table.html`; `layouts/base.text.hbs` → `layouts/base.text`.
function partialName(dir: string, file: string, prefix: string): string {
  return prefix + relative(dir, file).split(sep).join('/').replace(/\.hbs$/, '');
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new EmailRenderError(`cannot read template ${file}`, { cause: err });
  }
}

/**
 * Reads and compiles every layout, partial and email under `root` once. `*.text.hbs` and
 * `*.subject.hbs` are compiled without HTML escaping; `*.html.hbs` escape every `{{ }}`.
 */
export function loadTemplates(root: string): TemplateSet {
  const hbs = Handlebars.create();
  registerHelpers(hbs);
  const compile = (file: string): Handlebars.TemplateDelegate => {
    const noEscape = !file.endsWith('.html.hbs');
    const source = read(file);
    try {
      hbs.parse(source); // surfaces syntax errors now; compile() itself is lazy
      const template = hbs.compile(source, { noEscape, strict: true });
      return (context, options) => {
        try {
          return template(context, options);
        } catch (err) {
          throw new EmailRenderError(`template ${relative(root, file)} failed: ${(err as Error).message}`, { cause: err });
        }
      };
    } catch (err) {
      throw new EmailRenderError(`template ${relative(root, file)} does not compile`, { cause: err });
    }
  };

  for (const [sub, prefix] of [
    ['partials', ''],
    ['layouts', 'layouts/'],
  ] as const) {
    const dir = join(root, sub);
    for (const file of listHbs(dir)) hbs.registerPartial(partialName(dir, file, prefix), compile(file));
  }

  const entries = EMAIL_KINDS.map((kind) => {
    const file = (part: string) => join(root, 'emails', `${kind}.${part}.hbs`);
    return [kind, { subject: compile(file('subject')), html: compile(file('html')), text: compile(file('text')) }] as const;
  });
  return Object.fromEntries(entries) as Record<EmailKind, EmailTemplates>;
}
