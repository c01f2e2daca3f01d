import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import Handlebars from 'handlebars/runtime';
import { EmailRenderError } from '../errors';
import { registerHelpers } from './helpers';
import { guardTemplate, type TemplateSet } from './templateSet';
import { EMAIL_KINDS, type EmailKind } from './views';

/** File name of the precompiled templates inside a template root (written when a Lambda bundle is built). */
export const PRECOMPILED_TEMPLATES_FILE = 'precompiled.mjs';

type Spec = Parameters<typeof Handlebars.template>[0];

/** What the precompiled module exports by default: Handlebars template specs, named as in `TemplateSources`. */
export interface PrecompiledTemplates {
  readonly partials: Readonly<Record<string, Spec>>;
  readonly emails: Readonly<Record<EmailKind, Readonly<Record<'subject' | 'html' | 'text', Spec>>>>;
}

/** The template set from precompiled specs, with the Handlebars runtime only (no compiler). */
export function templatesFromPrecompiled(compiled: PrecompiledTemplates): TemplateSet {
  const hbs = Handlebars.create();
  registerHelpers(hbs);
  const template = (file: string, spec: Spec | undefined): Handlebars.TemplateDelegate => {
    if (spec === undefined) throw new EmailRenderError(`precompiled template ${file} is missing`);
    return guardTemplate(file, hbs.template(spec));
  };
  for (const [name, spec] of Object.entries(compiled.partials)) hbs.registerPartial(name, template(name, spec));
  const entries = EMAIL_KINDS.map((kind) => {
    const parts = compiled.emails[kind];
    const part = (name: 'subject' | 'html' | 'text') => template(`emails/${kind}.${name}.hbs`, parts?.[name]);
    return [kind, { subject: part('subject'), html: part('html'), text: part('text') }] as const;
  });
  return Object.fromEntries(entries) as TemplateSet;
}

/**
 * Loads `precompiled.mjs` from a template root (the Lambda bundles ship it in `templates/`, so
 * the Handlebars compiler stays out of them). Throws `EmailRenderError` when it is missing.
 */
export async function loadPrecompiledTemplates(root: string): Promise<TemplateSet> {
  let module: { default: PrecompiledTemplates };
  try {
    module = (await import(pathToFileURL(join(root, PRECOMPILED_TEMPLATES_FILE)).href)) as { default: PrecompiledTemplates };
  } catch (err) {
    throw new EmailRenderError(`cannot load precompiled templates from ${root}`, { cause: err });
  }
  return templatesFromPrecompiled(module.default);
}
