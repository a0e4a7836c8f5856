/**
 * What the projects of one Vitest run share — one Auth emulator, one Firestore, one data
 * directory — started by the first project whose global setup asks for it and stopped after
 * the last one's teardown. Each project loads its global setup files through its own module
 * runner, so the count lives on globalThis (global setups run in Vitest's main process).
 */
interface Entry {
  value: Promise<unknown>;
  users: number;
  stop: () => Promise<void>;
}

const KEY = Symbol.for('polyindex.test.shared');
const entries: Map<string, Entry> = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Map<string, Entry>;

/**
 * The value `start` gives, started once per run under `name`; `release` (call it from the
 * project's teardown) stops it after its last user.
 */
export async function shared<T>(name: string, start: () => Promise<T>, stop: (value: T) => Promise<void>): Promise<{ value: T; release: () => Promise<void> }> {
  let entry = entries.get(name);
  if (!entry) {
    const value = start();
    entry = { value, users: 0, stop: async () => stop(await value) };
    entries.set(name, entry);
  }
  entry.users += 1;
  const value = (await entry.value) as T;
  const mine = entry;
  let released = false;
  return {
    value,
    release: async () => {
      if (released) return;
      released = true;
      mine.users -= 1;
      if (mine.users > 0) return;
      entries.delete(name);
      await mine.stop();
    },
  };
}
