/** Wraps writes so `written` runs after each one settles, committed or not (e.g. to drop or bump a read cache). */
export function notifyingAfter(written: () => void): <T>(work: Promise<T>) => Promise<T> {
  return async (work) => {
    try {
      return await work;
    } finally {
      written();
    }
  };
}
