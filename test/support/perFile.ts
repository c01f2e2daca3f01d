import { afterAll, beforeAll } from 'vitest';

/**
 * Starts a harness before the tests of the file (or `describe`) it is called in and stops it after
 * them. Returns a stand-in that reads and writes through to the started harness, so a test file
 * writes `const world = perFile(...)` once instead of a `let`, a `beforeAll` and an `afterAll`.
 * Touching the stand-in outside a test or hook (before the harness started) throws, naming it.
 */
export function perFile<T extends object>(name: string, start: () => Promise<T>, stop: (started: T) => Promise<void>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    const running = started;
    started = undefined;
    if (running) await stop(running);
  });
  const current = (): T => {
    if (!started) throw new Error(`${name} runs only while the file's tests do: use it inside a test or hook`);
    return started;
  };
  return new Proxy({} as T, {
    get(_, key) {
      // Not a promise: `await` and `return` from an async function look for `then`.
      if (key === 'then' && started === undefined) return undefined;
      const target = current();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(current(), key, value),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
