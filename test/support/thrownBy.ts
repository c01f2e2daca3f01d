/** The error `run` throws, which must be a `type` (any other error is thrown on); a `run` that returns fails the test. */
export function thrownBy<E extends Error>(type: abstract new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a ${type.name}`);
}
