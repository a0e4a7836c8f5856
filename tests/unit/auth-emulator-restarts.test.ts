/**
 * The launcher's restart policy for a dead Auth emulator (scripts/lib/auth-emulator.mjs): waits
 * of 1 s, 2 s, 4 s … capped at 60 s, so a storm of deaths costs at most one start a minute; the
 * series starts again after an emulator that ran RESTART_CALM_MS; a failed restart is tried
 * again; a stop ends everything, also a restart in progress. The emulator processes are stood in
 * for by handles whose end the test decides (the real process is killed in tests/integration/start.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESTART_CALM_MS, RESTART_MAX_DELAY_MS, restartDelayMs, superviseAuthEmulator, type AuthEmulator } from '../../scripts/lib/auth-emulator.mjs';

describe('restartDelayMs', () => {
  it('doubles from 1 s and stops at 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50, 5000].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000]);
    expect(RESTART_MAX_DELAY_MS).toBe(60_000);
  });
});

/** An emulator handle whose death the test triggers. */
function handle() {
  let die: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void = () => {};
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => (die = done));
  const stop = vi.fn(async () => die({ code: 0, signal: null }));
  const emulator: AuthEmulator = { reused: false, exited, stop };
  return { emulator, kill: () => die({ code: null, signal: 'SIGKILL' }), stop };
}

describe('superviseAuthEmulator', () => {
  let clock = 0;
  const errors: string[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
    errors.length = 0;
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    vi.spyOn(console, 'log').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** Lets the supervisor's promises run and `ms` of time pass. */
  const advance = async (ms: number) => {
    clock += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };

  it('restarts after 1 s, 2 s, 4 s … up to 60 s while deaths come quickly, and from 1 s again after a calm run', async () => {
    const started: ReturnType<typeof handle>[] = [];
    const first = handle();
    const afterRestart = vi.fn(async () => {});
    const supervisor = superviseAuthEmulator({
      first: first.emulator,
      start: async () => {
        const next = handle();
        started.push(next);
        return next.emulator;
      },
      afterRestart,
      now: () => clock,
    });
    let current = first;
    const waits: number[] = [];
    for (let death = 1; death <= 9; death++) {
      current.kill();
      await advance(0);
      const before = started.length;
      let waited = 0;
      while (started.length === before) {
        await advance(500);
        waited += 500;
      }
      waits.push(waited);
      current = started.at(-1)!;
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
    expect(afterRestart).toHaveBeenCalledTimes(9);
    expect(errors.filter((line) => line.includes('stopped unexpectedly'))).toHaveLength(9);

    // A run longer than RESTART_CALM_MS: the next death is restart 1 again.
    await advance(RESTART_CALM_MS);
    current.kill();
    await advance(0);
    expect(errors.at(-1)).toMatch(/restarting it in 1 s \(restart 1\)/);
    await advance(1_000);
    expect(started).toHaveLength(10);
    await supervisor.stop();
    expect(started.at(-1)!.stop).toHaveBeenCalled();
  });

  it('a restart that fails is tried again with the next wait; a stop during a wait starts nothing', async () => {
    const first = handle();
    let attempts = 0;
    const second = handle();
    const supervisor = superviseAuthEmulator({
      first: first.emulator,
      start: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('the Auth emulator did not start (3 attempts): it ended while starting:\nCould not start Emulator Hub, port taken.');
        return second.emulator;
      },
      now: () => clock,
    });
    first.kill();
    await advance(1_000);
    expect(attempts).toBe(1);
    expect(errors.at(-1)).toMatch(/restart failed \(the Auth emulator did not start \(3 attempts\): it ended while starting:\): trying again in 2 s \(restart 2\)/);
    await advance(2_000);
    expect(attempts).toBe(2);

    second.kill();
    await advance(0);
    expect(errors.at(-1)).toMatch(/restarting it in 4 s \(restart 3\)/);
    await supervisor.stop();
    await advance(60_000);
    expect(attempts).toBe(2);
  });

  it('nothing is restarted once the launcher is stopping (a Ctrl-C reaches the emulator too)', async () => {
    const first = handle();
    const start = vi.fn(async () => handle().emulator);
    superviseAuthEmulator({ first: first.emulator, start, isStopping: () => true, now: () => clock });
    first.kill();
    await advance(120_000);
    expect(start).not.toHaveBeenCalled();
    expect(errors).toEqual([]);
  });
});
