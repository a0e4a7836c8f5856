/** The payment store's SQLite file across a reopen, and the sandbox secret (the port's behaviour: tests/contract). */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SECRET_FILE, sandboxSecret } from '../../src/server/payments/sandbox.ts';
import { openStore, type Store } from '../../src/server/store/index.ts';

const NOW = new Date('2026-11-22T04:30:00.000Z');
let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'polyindex-paystore-'));
  store = await openStore({ url: `file:${join(dir, 'store.db')}` });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const order = (id: string, uid: string) => ({ id, uid, plan: 'Premium', amount: 1_500_000, currency: 'INR', receipt: `r_${id}` });

// The port's behaviour (orders, grants, events) is tests/contract/payments.contract.test.ts.
describe('the SQLite file', () => {
  it('survives a reopen: migrations run once', async () => {
    expect(await store.createOrder(order('order_A', 'u1'), NOW)).toBe(true);
    const again = await openStore({ url: `file:${join(dir, 'store.db')}` });
    try {
      expect((await again.findOrder('order_A'))!.uid).toBe('u1');
    } finally {
      await again.close();
    }
  });
});

describe('the sandbox secret', () => {
  it('is the configured one when given, else random, kept in DATA_DIR with mode 0600', () => {
    const data = join(dir, 'data');
    expect(sandboxSecret('configured', data)).toBe('configured');
    const first = sandboxSecret(undefined, data);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(sandboxSecret(undefined, data)).toBe(first);
    expect(statSync(join(data, SANDBOX_SECRET_FILE)).mode & 0o777).toBe(0o600);
    expect(sandboxSecret(undefined, join(dir, 'other'))).not.toBe(first);
  });
});
