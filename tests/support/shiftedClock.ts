/**
 * Moves the process's Date clock to `at` and keeps it running at the real rate, exactly: every
 * reading is the real time plus one fixed offset. Vitest's fake Date with `shouldAdvanceTime`
 * only advances by a timer's ticks, so on a loaded machine it falls behind real time (1.3 s in
 * 2 s was seen), and code that waits for the clock to pass an instant gives up first. Timers and
 * `performance` stay real. Returns the function that puts the real clock back.
 */
export function shiftClockTo(at: number): () => void {
  const RealDate = globalThis.Date;
  const offset = at - RealDate.now();
  class ShiftedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate as DateConstructor;
  return () => {
    globalThis.Date = RealDate;
  };
}
