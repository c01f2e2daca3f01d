import { inlineCss } from '../css/inlineCss';
import { EmailRenderError } from '../errors';
import { isValidTimeZone } from './format';
import type { TemplateSet } from './templateSet';
import { emailViewSchemas, type EmailKind, type EmailViews } from './views';
import { firstIssue } from '../../shared/firstIssue';

/** A rendered email: a one-line subject, HTML with inlined CSS, and a plain-text alternative. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export interface RenderOptions {
  /** The recipient's IANA time zone, e.g. `Europe/Berlin`. */
  timeZone: string;
}

/** Renders the six emails from their views. */
export interface EmailRenderer {
  render<K extends EmailKind>(kind: K, view: EmailViews[K], options: RenderOptions): RenderedEmail;
}

const SUBJECT_MAX = 200;

function oneLine(subject: string): string {
  const flat = subject.replace(/\s+/g, ' ').trim();
  return flat.length > SUBJECT_MAX ? `${flat.slice(0, SUBJECT_MAX - 1)}…` : flat;
}

function tidyText(text: string): string {
  return `${text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/**
 * A renderer over compiled templates (from source with `loadTemplates`, or precompiled with
 * `loadPrecompiledTemplates`). `render` validates the view (throwing `EmailRenderError` naming the
 * bad field), then renders subject, HTML (CSS inlined by `inlineCss`) and text.
 */
export function rendererFor(templates: TemplateSet): EmailRenderer {
  return {
    render(kind, view, { timeZone }) {
      if (!isValidTimeZone(timeZone)) throw new EmailRenderError(`timeZone: unknown IANA time zone ${JSON.stringify(timeZone)}`);
      const schema = emailViewSchemas[kind];
      if (!schema) throw new EmailRenderError(`unknown email kind ${JSON.stringify(kind)}`);
      const parsed = schema.safeParse(view);
      if (!parsed.success) throw new EmailRenderError(`${kind} view: ${firstIssue(parsed.error, 'view')}`, { cause: parsed.error });
      const tpl = templates[kind];
      const context = { ...parsed.data, timeZone };
      const subject = oneLine(tpl.subject(context));
      const html = inlineCss(tpl.html({ ...context, subject }));
      const text = tidyText(tpl.text({ ...context, subject }));
      return { subject, html, text };
    },
  };
}
