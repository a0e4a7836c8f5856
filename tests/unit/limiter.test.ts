import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/lib/limiter.ts';

/** A task that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, task: async () => opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the limiter', () => {
  it('runs at most `concurrency` tasks, queues `queue` more and turns the rest away at once', async () => {
    const limiter = createLimiter({ concurrency: 2, queue: 1 });
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const results = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.task();
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.load()).toEqual({ running: 2, waiting: 1 });
    expect(await results[3]).toEqual({ ok: false });

    gates[0]!.open();
    expect(await results[0]).toEqual({ ok: true, value: 0 });
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(limiter.load()).toEqual({ running: 2, waiting: 0 });
    gates[1]!.open();
    gates[2]!.open();
    expect(await Promise.all([results[1], results[2]])).toEqual([
      { ok: true, value: 1 },
      { ok: true, value: 2 },
    ]);
    expect(limiter.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a task that fails, and passes the failure on', async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 0 });
    await expect(limiter.run(async () => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    expect(await limiter.run(async () => 'next')).toEqual({ ok: true, value: 'next' });
    expect(limiter.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a limit that could never run anything', () => {
    expect(() => createLimiter({ concurrency: 0, queue: 4 })).toThrow(RangeError);
    expect(() => createLimiter({ concurrency: 1, queue: -1 })).toThrow(RangeError);
  });
});
