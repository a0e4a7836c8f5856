// GET /api/health: what a load balancer asks each instance (per dependency: tests/integration/sessions.test.ts).
import type { APIContext } from 'astro';
import { expect, it } from 'vitest';
import { GET } from '../../src/pages/api/health.ts';
import { apiContext } from './helpers.ts';

it('answers 200 with the backend and every dependency of the embedded default ok, never cached', async () => {
  const response = await GET(apiContext('/api/health') as unknown as APIContext);
  expect(response.status).toBe(200);
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  expect(await response.json()).toEqual({
    ok: true,
    status: 'ok',
    store: 'sqlite',
    dependencies: { store: 'ok', auth: 'ok', mail: 'ok', payments: 'ok' },
  });
});
