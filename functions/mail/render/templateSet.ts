import type Handlebars from 'handlebars';
import { EmailRenderError } from '../errors';
import type { EmailKind } from './views';

/** The three compiled parts of one email. */
export interface EmailTemplates {
  subject: Handlebars.TemplateDelegate;
  html: Handlebars.TemplateDelegate;
  text: Handlebars.TemplateDelegate;
}

/** Every email's compiled templates, by kind. */
export type TemplateSet = Readonly<Record<EmailKind, EmailTemplates>>;

/** `template`, throwing `EmailRenderError` naming the template file when rendering fails. */
export function guardTemplate(file: string, template: Handlebars.TemplateDelegate): Handlebars.TemplateDelegate {
  return (context, options) => {
    try {
      return template(context, options);
    } catch (err) {
      throw new EmailRenderError(`template ${file} failed: ${(err as Error).message}`, { cause: err });
    }
  };
}
