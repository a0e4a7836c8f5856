/**
 * The instance's health, per dependency, for a load balancer and for whoever is on call:
 * `ok` or `degraded` for the store, Firebase Auth, mail and payments. Only the store decides
 * the status code (503 when it cannot be read: the instance cannot serve). The others degrade
 * one feature each (sign-in, mail, checkout) and are reported, not failed on.
 *
 * Cost per call: one small store read; Firebase is asked only when no request has asked it for
 * 30 s; mail and payments are probed at most once a minute (an SMTP greeting and login, one
 * authenticated Razorpay read), every probe bounded in time.
 */
import { STORE_READ_TIMEOUT_MS, storeOutages, withTimeout, type Dependency } from './outages.ts';

export type DependencyStatus = 'ok' | 'degraded';

export interface HealthReport {
  /** The store can be read: this instance can serve (200); false means 503. */
  readonly ok: boolean;
  /** `ok`, `degraded` (a dependency other than the store is down) or `unavailable` (the store is). */
  readonly status: 'ok' | 'degraded' | 'unavailable';
  readonly dependencies: Readonly<Record<Dependency, DependencyStatus>>;
}

export interface HealthDeps {
  /** The store (opened on first use: not bounded in time, a first start seeds demo data). */
  readonly store: () => Promise<{ ping(): Promise<void> }>;
  /** Whether Firebase Auth answers (SessionVerifier.reachable). */
  readonly authReachable: (now: number) => Promise<boolean>;
  readonly verifyMail: () => Promise<void>;
  readonly pingPayments: () => Promise<void>;
  readonly now?: () => number;
  readonly log?: Pick<Console, 'error'>;
}

/** A bounded probe of a remote service whose answer is kept for `ttlMs` (one probe at a time). */
function cachedProbe(probe: () => Promise<void>, what: string, ttlMs: number, timeoutMs: number, log: Pick<Console, 'error'>) {
  let last: { at: number; ok: boolean } | null = null;
  let running: Promise<boolean> | null = null;
  return async (now: number): Promise<boolean> => {
    if (last && now - last.at < ttlMs) return last.ok;
    running ??= withTimeout(probe(), what, timeoutMs)
      .then(
        () => true,
        (error: unknown) => {
          // Logged when the state changes, not on every probe.
          if (last?.ok !== false) log.error(`[health] ${what} failed:`, error instanceof Error ? error.message : error);
          return false;
        },
      )
      .then((ok) => {
        last = { at: now, ok };
        running = null;
        return ok;
      });
    return running;
  };
}

export const REMOTE_PROBE_TTL_MS = 60_000;
const REMOTE_PROBE_TIMEOUT_MS = 10_000;

export function createHealthCheck(deps: HealthDeps): () => Promise<HealthReport> {
  const log = deps.log ?? console;
  const mail = cachedProbe(deps.verifyMail, 'mail check', REMOTE_PROBE_TTL_MS, REMOTE_PROBE_TIMEOUT_MS, log);
  const payments = cachedProbe(deps.pingPayments, 'payments check', REMOTE_PROBE_TTL_MS, REMOTE_PROBE_TIMEOUT_MS, log);
  return async () => {
    const now = deps.now?.() ?? Date.now();
    const [store, auth, mailOk, paymentsOk] = await Promise.all([
      deps
        .store()
        .then((store) => withTimeout(store.ping(), 'store check', STORE_READ_TIMEOUT_MS))
        .then(
        () => {
          storeOutages.answered(now);
          return true;
        },
        (error: unknown) => {
          storeOutages.failed(error, now, 'this instance answers its health check with 503');
          return false;
        },
      ),
      deps.authReachable(now).catch(() => false),
      mail(now),
      payments(now),
    ]);
    const dependencies: Record<Dependency, DependencyStatus> = {
      store: store ? 'ok' : 'degraded',
      auth: auth ? 'ok' : 'degraded',
      mail: mailOk ? 'ok' : 'degraded',
      payments: paymentsOk ? 'ok' : 'degraded',
    };
    const allOk = Object.values(dependencies).every((status) => status === 'ok');
    return { ok: store, status: !store ? 'unavailable' : allOk ? 'ok' : 'degraded', dependencies };
  };
}
