// The health check a load balancer asks — and proof that this run uses the store it was given.
import { expect, test } from '@playwright/test';
import { E2E_BACKEND } from './env.ts';

test('the instance answers its health check from the configured store, every dependency ok', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toEqual({
    ok: true,
    status: 'ok',
    store: E2E_BACKEND,
    dependencies: { store: 'ok', auth: 'ok', mail: 'ok', payments: 'ok' },
  });
});
