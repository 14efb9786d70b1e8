/** The error of class `kind` that `fn` throws synchronously; fails the test when it throws nothing or something else. */
export function thrownBy<E extends Error>(kind: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error(`expected a ${kind.name}`);
}
