import { rendererFor, type EmailRenderer, type RenderedEmail, type RenderOptions } from './emailRenderer';
import { defaultTemplateRoot, loadTemplates } from './templates';
import type { EmailKind, EmailViews } from './views';

export { rendererFor, type EmailRenderer, type RenderedEmail, type RenderOptions } from './emailRenderer';

/**
 * Creates a renderer over the templates in `templateRoot` (default: {@link defaultTemplateRoot}),
 * read and compiled once, here (see `rendererFor`).
 */
export function createEmailRenderer(options: { templateRoot?: string } = {}): EmailRenderer {
  return rendererFor(loadTemplates(options.templateRoot ?? defaultTemplateRoot()));
}

let shared: EmailRenderer | undefined;

/** Renders with a renderer over the default template root, created on first use. */
export function renderEmail<K extends EmailKind>(kind: K, view: EmailViews[K], options: RenderOptions): RenderedEmail {
  shared ??= createEmailRenderer();
  return shared.render(kind, view, options);
}
