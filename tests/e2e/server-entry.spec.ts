import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';

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
