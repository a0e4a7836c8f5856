/**
 * Moves the process's Date clock to `at` and keeps it running at the real rate, exactly: every
 * reading is the real time plus one fixed offset. Vitest's fake Date with `shouldAdvanceTime`
 * only advances by a timer's ticks, so on a loaded machine it falls behind real time (1.3 s in
 * 2 s was seen), and code that waits for the clock to pass an instant gives up first. Timers and
 * `performance` stay real. A Proxy of the real Date, so `Date()` without `new`, `instanceof Date`
 * and the prototype are the real ones. Not with Vitest's fake timers (whose restore would then
 * delete the global). Returns the function that puts the real clock back.
 */
export function shiftClockTo(at: number): () => void {
  const RealDate = globalThis.Date;
  if ((RealDate as { isFake?: boolean }).isFake) throw new Error('shiftClockTo: Vitest fake timers are installed; use one or the other');
  const offset = at - RealDate.now();
  const now = () => RealDate.now() + offset;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args: unknown[], newTarget) => (args.length === 0 ? Reflect.construct(target, [now()], newTarget) : Reflect.construct(target, args, newTarget)),
    apply: () => new RealDate(now()).toString(),
    get: (target, property, receiver) => (property === 'now' ? now : Reflect.get(target, property, receiver)),
  });
  return () => {
    globalThis.Date = RealDate;
  };
}
