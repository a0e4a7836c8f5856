/**
 * Outages of the services the site depends on, told apart from answers. "The store could not
 * be read" or "Firebase could not be reached" is not "no such user": a request that needs the
 * missing service answers 503, it never treats the visitor as signed out.
 */
import { jsonError } from './http/responses.ts';

export type Dependency = 'store' | 'auth' | 'mail' | 'payments';

/** A dependency could not answer the question a request needed answered. */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
  constructor(
    readonly dependency: Dependency,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A call got no answer within the time it was given. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'polyindex/timeout';
  constructor(what: string, ms: number) {
    super(`${what}: no answer within ${ms} ms`);
  }
}

/** Waits at most `ms` for `call` (which may run on; its outcome is then ignored). */
export async function withTimeout<T>(call: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a person reads while a dependency is down (pages and JSON alike). */
export const UNAVAILABLE_MESSAGES: Record<Dependency, string> = {
  store: 'PolyIndex cannot reach its data right now. Please try again in a few minutes.',
  auth: 'Sign-in is unavailable, try again in a few minutes.',
  mail: 'Mail cannot be sent right now. Please try again in a few minutes.',
  payments: 'Payments are unavailable right now. Please try again in a few minutes.',
};

/**
 * How long a request waits for one store read before the store counts as unreachable: a store
 * that cannot be reached may not fail fast (Firestore's client retries an unavailable backend
 * for a minute). Opening the store (a first start seeds demo data) is not bounded by it.
 */
export const STORE_READ_TIMEOUT_MS = 10_000;

/** Seconds a client is asked to wait before retrying (the `Retry-After` of every 503). */
export const RETRY_AFTER_S = 60;

/** The JSON 503 of an API path that needs the missing service. */
export function unavailableJson(error: UnavailableError): Response {
  const response = jsonError(503, `${error.dependency}_unavailable`, UNAVAILABLE_MESSAGES[error.dependency]);
  response.headers.set('Retry-After', String(RETRY_AFTER_S));
  return response;
}

export interface OutageState {
  readonly up: boolean;
  /** When the current outage began (ms); null while up. */
  readonly downSince: number | null;
}

/**
 * One dependency's up/down state as the calls to it find it, logged once when an outage begins
 * and once when it ends (never per failed request: an outage must not flood the log).
 */
export class OutageLog {
  #downSince: number | null = null;
  #failures = 0;

  constructor(
    private readonly name: string,
    private readonly log: Pick<Console, 'error' | 'warn'> = console,
  ) {}

  /** A call failed because the service could not be reached. */
  failed(error: unknown, now: number, consequence: string): void {
    this.#failures++;
    if (this.#downSince !== null) return;
    this.#downSince = now;
    this.log.error(`[${this.name}] cannot be reached (${describe(error)}): ${consequence}`);
  }

  /** A call got an answer (yes or no): the service is reachable. */
  answered(now: number): void {
    if (this.#downSince === null) return;
    const seconds = Math.round((now - this.#downSince) / 1000);
    this.log.warn(`[${this.name}] reachable again after ${seconds} s (${this.#failures} failed calls)`);
    this.#downSince = null;
    this.#failures = 0;
  }

  get state(): OutageState {
    return { up: this.#downSince === null, downSince: this.#downSince };
  }
}

/** A short, secret-free description of a failure for the log. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`.slice(0, 300);
  }
  if (typeof error === 'object' && error !== null && 'code' in error) return String((error as { code: unknown }).code);
  return String(error).slice(0, 300);
}

/** The store's outages as requests find them (the middleware and the health check share it). */
export const storeOutages = new OutageLog('store');
