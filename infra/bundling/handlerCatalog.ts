import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the CDK bundling input and the base of every handler entry. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Every Lambda handler, one file each at `functions/handlers/<name>.ts` exporting `handler` (except
 * where `ENTRY_FILES` names another file). The name is also the deployed function's name.
 */
export const HANDLER_NAMES = [
  'dispatch',
  'collect',
  'report-dispatch',
  'notify',
  'daily-report',
  'revoke-page',
  'preferences-page',
  'sign-revocation',
  'ses-events',
] as const;
export type HandlerName = (typeof HANDLER_NAMES)[number];

/** What a handler's bundle needs besides the bundled code. */
export interface HandlerBundleNeeds {
  /** Ships `templates/` next to the bundle (read at runtime from `TEMPLATES_DIR`). */
  readonly templates: boolean;
  /** Ships the chart's fonts in `fonts/` next to the bundle (Lambda has no system fonts; see `chartFonts.ts`). */
  readonly fonts: boolean;
  /**
   * Packages with a native addon: esbuild cannot bundle `.node` files, so they stay external and
   * are copied into the bundle's `node_modules` together with the prebuilt binary package for the
   * function's architecture.
   */
  readonly nativeModules: readonly string[];
}

const PLAIN: HandlerBundleNeeds = { templates: false, fonts: false, nativeModules: [] };
/** Email renderers: Handlebars templates, and the chart PNG drawn by `@resvg/resvg-js` with its fonts. */
const MAIL: HandlerBundleNeeds = { templates: true, fonts: true, nativeModules: ['@resvg/resvg-js'] };

/** Bundle needs per handler; the CDK construct and `bench/bundles.ts` both read this. */
export const HANDLER_BUNDLE_NEEDS: Readonly<Record<HandlerName, HandlerBundleNeeds>> = {
  dispatch: PLAIN,
  collect: PLAIN,
  'report-dispatch': PLAIN,
  notify: MAIL,
  'daily-report': MAIL,
  'revoke-page': PLAIN,
  'preferences-page': PLAIN,
  'sign-revocation': PLAIN,
  'ses-events': PLAIN,
};

/**
 * Handlers whose entry file is named for what it does while the deployed function keeps its name
 * and CDK logical id (renaming those would replace the function and its queue event source; see
 * docs/deploy.md).
 */
const ENTRY_FILES: Partial<Record<HandlerName, string>> = { 'daily-report': 'report-worker' };

/** Absolute path of a handler's entry file. */
export function handlerEntry(name: HandlerName, root: string = PROJECT_ROOT): string {
  return join(root, 'functions', 'handlers', `${ENTRY_FILES[name] ?? name}.ts`);
}
