import type { Context } from 'aws-lambda';

/**
 * Builds a handler's dependencies on its first invocation (once per cold start) and reuses them.
 * A failed build (e.g. invalid configuration) is not cached, so the next invocation tries again
 * and reports the same clear error instead of a stale one.
 */
export function lazyHandler<E, R>(build: () => Promise<(event: E, context: Context) => Promise<R>>): (event: E, context: Context) => Promise<R> {
  let built: Promise<(event: E, context: Context) => Promise<R>> | undefined;
  return async (event, context) => {
    built ??= build().catch((error: unknown) => {
      built = undefined;
      throw error;
    });
    return (await built)(event, context);
  };
}
