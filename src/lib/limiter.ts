/**
 * A bound on concurrent work with a short waiting line: at most `concurrency` tasks run, at most
 * `queue` wait, and a task beyond that is turned away at once (the caller answers 503) rather
 * than piling up behind the others. Pure: it only orders promises.
 */
export interface Limiter {
  /** Runs `task` when a slot is free; `{ ok: false }` when the line is full. */
  run<T>(task: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }>;
  /** Tasks running and waiting now (for tests and logs). */
  readonly load: () => { running: number; waiting: number };
}

export function createLimiter({ concurrency, queue }: { concurrency: number; queue: number }): Limiter {
  if (!(concurrency >= 1) || !(queue >= 0)) throw new RangeError('concurrency ≥ 1 and queue ≥ 0');
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    async run(task) {
      if (running >= concurrency) {
        if (waiting.length >= queue) return { ok: false };
        // The slot passes straight from the finishing task to this one (running stays equal).
        await new Promise<void>((resume) => waiting.push(resume));
      } else {
        running += 1;
      }
      try {
        return { ok: true, value: await task() };
      } finally {
        release();
      }
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
