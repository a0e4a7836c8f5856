/** Shared helpers of the integration suites: real emulator accounts, real SQLite files, Astro contexts. */
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { APIContext } from 'astro';
import type { Session } from '../../src/server/auth/session.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { TEST_DATA_DIR, TEST_EMULATOR_HOST } from './env.ts';

const emulator = `http://${TEST_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;

/**
 * A call to the emulator, sent again once when the kept-alive connection it went out on had
 * just been closed by the emulator (on a loaded machine the client's idle timer fires late).
 * Only for calls that may be repeated: a sign-up of an address already taken fails as such.
 */
async function toEmulator(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error;
    return fetch(url, init);
  }
}

/** Creates an e-mail account in the emulator and returns a fresh ID token for it. */
export async function emulatorSignUp(email: string, password = 'secret-pass'): Promise<{ idToken: string; uid: string }> {
  const response = await toEmulator(`${emulator}/accounts:signUp?key=demo-api-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  if (!response.ok) throw new Error(await response.text());
  const body = (await response.json()) as { idToken: string; localId: string };
  return { idToken: body.idToken, uid: body.localId };
}

/** Signs an existing e-mail account in and returns a fresh ID token. */
export async function emulatorSignIn(email: string, password = 'secret-pass'): Promise<string> {
  const response = await toEmulator(`${emulator}/accounts:signInWithPassword?key=demo-api-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  if (!response.ok) throw new Error(await response.text());
  return ((await response.json()) as { idToken: string }).idToken;
}

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

/** A store on a new SQLite file of its own. */
export async function freshStore(): Promise<Store> {
  const dir = mkdtempSync(join(TEST_DATA_DIR, 'store-'));
  return openStore({ url: sqliteUrlFor(dir) });
}

interface ContextOptions {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  locals?: Partial<App.Locals>;
  params?: Record<string, string>;
  routePattern?: string;
  /** The peer's address as the adapter reports it (default: loopback, as every test client is). */
  clientAddress?: string;
}

/** An Astro API/middleware context around a real Request, as the adapter would build it. */
export function apiContext(path: string, options: ContextOptions = {}) {
  const url = new URL(path, 'http://127.0.0.1:4321');
  const jar = new Map(Object.entries(options.cookies ?? {}));
  const set: Record<string, { value: string; options: unknown }> = {};
  const headers = new Headers(options.headers ?? {});
  // Our pages send JSON bodies as JSON; a test of another media type names its own.
  if (options.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const request = new Request(url, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const context = {
    url,
    request,
    params: options.params ?? {},
    locals: { session: null, ...options.locals } as App.Locals,
    isPrerendered: false,
    routePattern: options.routePattern ?? url.pathname,
    clientAddress: options.clientAddress ?? '127.0.0.1',
    cookies: {
      get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined),
      has: (name: string) => jar.has(name),
      set: (name: string, value: string, cookieOptions: unknown) => {
        jar.set(name, value);
        set[name] = { value, options: cookieOptions };
      },
      delete: (name: string) => {
        jar.delete(name);
        set[name] = { value: '', options: { maxAge: 0 } };
      },
    },
    redirect: (to: string, status = 302) => new Response(null, { status, headers: { Location: to } }),
    // The statuses the target pages set themselves: 404.astro and unavailable.astro (503).
    rewrite: async (to: string) => new Response(`rewritten to ${to}`, { status: to === '/404' ? 404 : to === '/unavailable' ? 503 : 200 }),
  };
  return { context: context as unknown as APIContext, set, jar };
}

/** A plain user record as sign-up writes it (no plan), for tests that put users in a store directly. */
export const userRecordOf = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid,
  displayName: `User ${uid}`,
  email: `${uid}@example.test`,
  phone: null,
  photoURL: null,
  role: 'user',
  subscribed: false,
  plan: null,
  createdAt: '01-01-2026',
  ...extra,
});

/** The session the middleware would put on locals for this record (admins by default get `admin`). */
export const sessionOf = (record: UserRecord, entitlement: Session['entitlement'] = record.role === 'admin' ? 'admin' : 'none'): Session => ({
  uid: record.uid,
  email: record.email,
  record,
  entitlement,
  inTrial: false,
});

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | undefined>;
  readonly body: Buffer;
}

/** One request by node:http: nothing is decoded. */
export function rawRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string | undefined>, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}
