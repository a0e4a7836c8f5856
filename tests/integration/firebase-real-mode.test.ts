/**
 * Real-Firebase mode (no emulator) when Google's public keys cannot be fetched: firebase-admin
 * reports that as a bad token (`auth/argument-error`), and a session must not be taken for
 * signed out because of it. Every connection firebase-admin opens goes, through the app's
 * `httpAgent`, to a loopback port this file controls; nothing leaves the machine.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Agent } from 'node:https';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { initializeApp } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { firebaseAuth } from '../../src/server/auth/firebaseAdmin.ts';
import { firebaseCouldNotAnswer } from '../../src/server/auth/firebaseCalls.ts';
import { SessionVerifier } from '../../src/server/auth/sessions.ts';

const PROJECT = 'demo-real-mode';
const savedEmulatorHost = process.env['FIREBASE_AUTH_EMULATOR_HOST'];
/** Accepts connections and never answers. */
let silentServer: Server;
let silentPort = 0;
/** Nothing listens there: connections are refused (firebase-admin does not retry those). */
let closedPort = 0;
let mode: 'refuse' | 'hang' = 'refuse';
let connections = 0;
const open = new Set<Socket>();
let auth: Auth;

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = Date.now();
/** A real-mode session cookie as far as its shape goes (the signature is never reached). */
const cookie = `${b64({ alg: 'RS256', kid: 'key-1', typ: 'JWT' })}.${b64({
  iss: `https://session.firebase.google.com/${PROJECT}`,
  aud: PROJECT,
  sub: 'u-real',
  auth_time: Math.floor(now / 1000) - 60,
  iat: Math.floor(now / 1000) - 60,
  exp: Math.floor(now / 1000) + 3600,
})}.c2lnbmF0dXJl`;

beforeAll(async () => {
  // firebase-admin decides emulator mode per call from this variable: real mode here.
  delete process.env['FIREBASE_AUTH_EMULATOR_HOST'];
  silentServer = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
  silentPort = (silentServer.address() as AddressInfo).port;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const agent = new Agent();
  // Every connection, whatever the host (www.googleapis.com for the keys), goes to loopback.
  agent.createConnection = () => {
    connections++;
    return connect(mode === 'refuse' ? closedPort : silentPort, '127.0.0.1');
  };
  auth = getAuth(initializeApp({ projectId: PROJECT, httpAgent: agent }, 'real-mode'));
});

afterAll(async () => {
  process.env['FIREBASE_AUTH_EMULATOR_HOST'] = savedEmulatorHost;
  for (const socket of open) socket.destroy();
  await new Promise<void>((resolve) => silentServer.close(() => resolve()));
});

it('tells a key fetch that failed from a bad cookie, and answers 503 instead of "signed out"', async () => {
  mode = 'refuse';
  const error = await auth.verifySessionCookie(cookie, false).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'auth/argument-error' });
  expect(firebaseCouldNotAnswer(error)).toBe(true);
  expect(connections).toBeGreaterThan(0);

  const log = { error: vi.fn(), warn: vi.fn() };
  const verifier = new SessionVerifier(auth, { emulator: false, timeoutMs: 2_000, log });
  await expect(verifier.verify(cookie, Date.now())).rejects.toMatchObject({ dependency: 'auth' });
  expect(log.error).toHaveBeenCalledTimes(1);

  // A cookie that is not one is still a "no", decided without fetching anything.
  const before = connections;
  const garbage = await auth.verifySessionCookie('not.a.cookie', false).catch((e: unknown) => e);
  expect(firebaseCouldNotAnswer(garbage)).toBe(false);
  expect(await verifier.verify('not.a.cookie', Date.now())).toBeNull();
  expect(connections).toBe(before);
});

it('gives up on a key server that never answers', async () => {
  mode = 'hang';
  const verifier = new SessionVerifier(auth, { emulator: false, timeoutMs: 500, log: { error: vi.fn(), warn: vi.fn() } });
  // The cause is our timeout: that is what ended the wait.
  await expect(verifier.verify(cookie, Date.now())).rejects.toMatchObject({ dependency: 'auth', cause: { code: 'polyindex/timeout' } });
});

it('refuses to make a real-mode Auth while FIREBASE_AUTH_EMULATOR_HOST is set: firebase-admin would take unsigned tokens', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const serviceAccountJson = JSON.stringify({ type: 'service_account', project_id: 'demo-leftover', private_key: privateKey, client_email: 'server@demo-leftover.iam.gserviceaccount.com' });
  process.env['FIREBASE_AUTH_EMULATOR_HOST'] = '127.0.0.1:9';
  try {
    expect(() => firebaseAuth({ projectId: 'demo-leftover', serviceAccountJson })).toThrow(/FIREBASE_AUTH_EMULATOR_HOST is set beside FIREBASE_SERVICE_ACCOUNT/);
  } finally {
    delete process.env['FIREBASE_AUTH_EMULATOR_HOST'];
  }
  // Without the variable the same settings make an Auth (nothing is asked of Google here).
  expect(firebaseAuth({ projectId: 'demo-leftover', serviceAccountJson }).app.options.projectId).toBe('demo-leftover');
});
