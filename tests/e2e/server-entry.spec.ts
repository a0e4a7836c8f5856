import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../../scripts/lib/ports.mjs';
import { E2E_DATA_DIR, E2E_EMULATOR_HOST } from './env.ts';

// The server process (dist/server/serve.mjs, which `npm start` runs) keeps the loopback guard:
// with the Auth emulator it refuses a non-loopback HOST before it listens.
test('the server entry refuses to serve the emulator beyond loopback', () => {
  const result = spawnSync(process.execPath, ['dist/server/serve.mjs'], {
    env: { ...process.env, HOST: '0.0.0.0', PORT: '4391', DATA_DIR: '.cache/e2e-refused', FIREBASE_SERVICE_ACCOUNT: '' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('Refusing to serve 0.0.0.0');
  expect(result.stdout).not.toContain('listening');
});

// The data API's fast lane answers with the same headers as the rest of the site.
test('the fast lane answers the data API with its policy and headers', async ({ request }) => {
  const carousels = await request.get('/api/carousels/');
  expect(carousels.status()).toBe(200);
  expect(carousels.headers()).toMatchObject({ 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
  const etag = carousels.headers()['etag']!;
  expect((await request.get('/api/carousels/', { headers: { 'If-None-Match': etag } })).status()).toBe(304);
  const anonymous = await request.get('/api/feedstock?name=Naphtha');
  expect(anonymous.status()).toBe(401);
  expect(await anonymous.json()).toEqual({ error: { code: 'unauthenticated', message: 'Sign in to use this endpoint.' } });
});

/** One request with any Host header (the browser and fetch set their own) to the instance on `port`. */
function send(port: number, path: string, { method = 'GET', host, headers = {} }: { method?: string; host: string; headers?: Record<string, string> }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Issue 24, probe findings 2 and 5, against the built server (dist/server/serve.mjs) as `npm start`
// runs it in the embedded default: a DNS-rebinding Host is 421, TRACE 501 and a Host with
// credentials 400, each before Astro, and nothing (no stack trace) is written to the log.
test('the built server screens TRACE, bad Hosts and foreign Hosts before Astro, and logs nothing for them', async () => {
  test.slow(); // its own instance of the server
  // A free port, not one next to the site's: with three workers, a port beside it was once held
  // by another process (an emulator answering 404), which this test then polled for a minute.
  const port = await freePort();
  let stderr = '';
  const server = spawn(process.execPath, ['dist/server/serve.mjs'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // The shared server's data (already seeded: a fresh store would seed demo prices first); no jobs of its own.
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: resolve(E2E_DATA_DIR), FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST, FIREBASE_SERVICE_ACCOUNT: '', METADATA_SERVER_DETECTION: 'none', ASTRO_TELEMETRY_DISABLED: '1', JOBS_SCHEDULER: 'off' },
  });
  server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  try {
    const own = `127.0.0.1:${port}`;
    // Up when it answers; a server that could not start (a port taken meanwhile) fails with its log.
    const answer = async () => {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before it answered:\n${stderr}`);
      return (await send(port, '/robots.txt', { host: own }).catch(() => null))?.status ?? 0;
    };
    await expect.poll(answer, { timeout: 60_000 }).toBe(200);

    for (const path of ['/', '/news', '/crude/Naphtha', '/api/session', '/api/feedstock?name=Naphtha']) {
      const trace = await send(port, path, { method: 'TRACE', host: own });
      expect(trace.status, path).toBe(501);
      expect(JSON.parse(trace.body)).toMatchObject({ error: { code: 'method_not_supported' } });
    }
    for (const path of ['/news', '/register', '/api/session']) {
      const bad = await send(port, path, { host: 'a@b' });
      expect(bad.status, path).toBe(400);
      expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'bad_host' } });
    }
    // The emulator's cookies are unsigned: a rebinding page must not reach the admin API (or anything) at all.
    const rebound = await send(port, '/api/admin/users/demo-premium/role', {
      method: 'POST',
      host: `attacker.example:${port}`,
      headers: { origin: `http://attacker.example:${port}`, 'content-type': 'application/json' },
    });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: { code: 'misdirected_request' } });
    for (const host of [`attacker.example:${port}`, `127.0.0.1:${port + 1}`]) expect((await send(port, '/news', { host })).status, host).toBe(421);
    // The site itself, at its loopback names and port.
    for (const host of [own, `localhost:${port}`]) expect((await send(port, '/news', { host })).status, host).toBe(200);

    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain('Could not render');
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
});
