/**
 * An in-memory sliding-window rate limiter. Each key (an IP, a user) may act at most `max`
 * times in every window. State is per process: behind a load balancer each instance counts
 * on its own, which still bounds what one client can send (see docs/mail.md).
 */

export interface Window {
  readonly windowMs: number;
  readonly max: number;
}

export type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one action for every key unless one of them is over a limit (then nothing is counted). */
  hit(keys: readonly string[]): RateDecision;
  /** Forgets everything (a restart does the same). */
  clear(): void;
}

/** What the mail endpoints allow per IP and per user. */
export const MAIL_LIMITS: readonly Window[] = [
  { windowMs: 60_000, max: 5 },
  { windowMs: 86_400_000, max: 30 },
];

/** Above this many tracked keys the oldest are dropped: memory stays bounded under a flood. */
const MAX_KEYS = 50_000;

export function createRateLimiter(windows: readonly Window[], now: () => number = Date.now): RateLimiter {
  const longest = Math.max(...windows.map((w) => w.windowMs));
  const hits = new Map<string, number[]>();

  const recent = (key: string, at: number): number[] => {
    const kept = (hits.get(key) ?? []).filter((t) => t > at - longest);
    if (kept.length === 0) hits.delete(key);
    else hits.set(key, kept);
    return kept;
  };

  return {
    hit(keys) {
      const at = now();
      let wait = 0;
      for (const key of keys) {
        const times = recent(key, at);
        for (const { windowMs, max } of windows) {
          const inWindow = times.filter((t) => t > at - windowMs);
          if (inWindow.length >= max) wait = Math.max(wait, inWindow[inWindow.length - max]! + windowMs - at);
        }
      }
      if (wait > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      for (const key of keys) {
        const times = hits.get(key) ?? [];
        times.push(at);
        hits.delete(key);
        hits.set(key, times);
      }
      while (hits.size > MAX_KEYS) hits.delete(hits.keys().next().value!);
      return { ok: true };
    },
    clear: () => hits.clear(),
  };
}
