// GET /api/health: what a load balancer asks each instance.
import type { APIContext } from 'astro';
import { expect, it } from 'vitest';
import { GET } from '../../src/pages/api/health.ts';
import { apiContext } from './helpers.ts';

it('answers 200 with the backend after reading the store, never cached', async () => {
  const response = await GET(apiContext('/api/health') as unknown as APIContext);
  expect(response.status).toBe(200);
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  expect(await response.json()).toEqual({ ok: true, store: 'sqlite' });
});
