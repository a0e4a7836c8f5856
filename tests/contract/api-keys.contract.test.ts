/** The data feed's keys and metering on both adapters: create within the limit, list, find, delete by owner only, count, usage, transfer. */
import { describe, expect, it } from 'vitest';
import { createMeterLeases } from '../../src/server/feed/meterLeases.ts';
import { MAX_API_KEYS, type ApiKeyMeter, type ApiKeyRecord, type ApiKeyUsageDay } from '../../src/server/store/apiKeys.ts';
import { attempt, backends, storePerTest, twinTest, withTwins } from './backends.ts';

const NOW = new Date('2026-11-24T06:00:10.000Z');
const ACTOR = { uid: 'u1', email: 'owner@example.test' };
const hashOf = (n: number): string => n.toString(16).padStart(64, '0');
const keyOf = (id: string, ownerUid: string, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: id.padEnd(12, '0').slice(0, 12),
  ownerUid,
  name: `key ${id}`,
  hash: hashOf(id.length + ownerUid.length),
  createdAt: NOW.toISOString(),
  urlKey: false,
  ratePerMinute: 3,
  monthlyQuota: 5,
  ...over,
});

describe.each(backends)('API keys on $name', (backend) => {
  const store = storePerTest(backend);

  it(`creates keys up to ${MAX_API_KEYS} per owner, lists them oldest first and finds one by id`, async () => {
    for (let i = 0; i < MAX_API_KEYS; i++) {
      expect(await store().createApiKey(keyOf(`k${i}`, 'u1', { createdAt: new Date(NOW.getTime() + i * 1000).toISOString() }), ACTOR)).toBe('created');
    }
    expect(await store().createApiKey(keyOf('kx', 'u1'), ACTOR)).toBe('limit');
    expect(await store().createApiKey(keyOf('kx', 'u2'), ACTOR)).toBe('created');
    const listed = await store().listApiKeys('u1', NOW);
    expect(listed.map((l) => l.key.id)).toEqual([0, 1, 2, 3, 4].map((i) => `k${i}`.padEnd(12, '0')));
    expect(listed[0]).toEqual({ key: keyOf('k0', 'u1'), lastUsedAt: null, month: '2026-11', monthCount: 0 });
    expect(await store().findApiKey('kx0000000000')).toEqual(keyOf('kx', 'u2'));
    expect(await store().findApiKey('nosuchkey000')).toBeNull();
    expect(await store().findApiKey('a/b')).toBeNull();
  });

  it('deletes only the owner\'s key, and then it is not found', async () => {
    await store().createApiKey(keyOf('mine', 'u1'), ACTOR);
    expect(await store().deleteApiKey('u2', 'mine00000000', ACTOR, NOW)).toBeNull();
    expect(await store().deleteApiKey('u1', 'mine00000000', ACTOR, NOW)).toEqual(keyOf('mine', 'u1'));
    expect(await store().findApiKey('mine00000000')).toBeNull();
    expect(await store().deleteApiKey('u1', 'mine00000000', ACTOR, NOW)).toBeNull();
    // Created and revoked, in the audit trail, without the hash.
    const { entries } = await store().listAudit({ target: 'apiKey:mine00000000' });
    expect(entries.map((e) => e.action)).toEqual(['apiKey.revoke', 'apiKey.create']);
    expect(JSON.stringify(entries)).not.toContain(keyOf('mine', 'u1').hash);
  });

  it('meters a key: the rate per minute, then a new minute, then the monthly quota; usage per day and last use', async () => {
    const key = keyOf('meter', 'u1');
    await store().createApiKey(key, ACTOR);
    const readings = [];
    for (let i = 0; i < 4; i++) readings.push(await store().meterApiKey(key, NOW));
    expect(readings.map((r) => [r.allowed, r.rate.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(readings[3]).toMatchObject({ limit: 'rate', retryAfterSeconds: 50 });
    const nextMinute = new Date(NOW.getTime() + 60_000);
    expect((await store().meterApiKey(key, nextMinute)).quota.remaining).toBe(1);
    expect((await store().meterApiKey(key, nextMinute)).quota.remaining).toBe(0);
    const overQuota = await store().meterApiKey(key, nextMinute);
    expect(overQuota).toMatchObject({ allowed: false, limit: 'quota' });
    const [listed] = await store().listApiKeys('u1', nextMinute);
    expect(listed).toMatchObject({ lastUsedAt: nextMinute.toISOString(), monthCount: 5 });
    // The quota comes back with the month.
    expect((await store().meterApiKey(key, new Date('2026-12-01T00:00:00.000Z'))).allowed).toBe(true);
    expect(await store().apiKeyUsage('u1', '2026-11-01')).toEqual([
      { id: 'meter0000000~2026-12-01', keyId: 'meter0000000', ownerUid: 'u1', day: '2026-12-01', requests: 1, refused: 0 },
      { id: 'meter0000000~2026-11-24', keyId: 'meter0000000', ownerUid: 'u1', day: '2026-11-24', requests: 5, refused: 2 },
    ]);
    expect(await store().apiKeyUsage('u1', '2026-11-25')).toHaveLength(1);
    expect(await store().apiKeyUsage('u2', '2026-11-01')).toEqual([]);
  });

  twinTest(backend, { isolated: true })('two instances counting one key at once never let more than its rate through', async () => {
    await withTwins(backend, async (a, b) => {
      const key = keyOf('twin', 'u1', { ratePerMinute: 6, monthlyQuota: 100 });
      await a.createApiKey(key, ACTOR);
      const readings = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).meterApiKey(key, NOW)));
      expect(readings.filter((r) => r.allowed)).toHaveLength(6);
      const [usage] = await a.apiKeyUsage('u1', '2026-11-24');
      expect(usage).toMatchObject({ requests: 6, refused: 4 });
    });
  });

  it('leases requests to an instance: one store transaction per lease, headers as if each was counted, the rest given back exactly', async () => {
    const key = keyOf('lease', 'u1', { ratePerMinute: 60, monthlyQuota: 1000 });
    await store().createApiKey(key, ACTOR);
    const meters = createMeterLeases(store());
    const readings = [];
    for (let i = 0; i < 10; i++) readings.push(await meters.take(key, NOW));
    expect(readings.every((r) => r.allowed)).toBe(true);
    // Remaining as a person counts them: one fewer per request.
    expect(readings.map((r) => r.rate.remaining)).toEqual([59, 58, 57, 56, 55, 54, 53, 52, 51, 50]);
    expect(readings.at(-1)!.quota.remaining).toBe(990);
    // Two leases of six were taken from the store; two of the second are unused until given back.
    expect((await store().listApiKeys('u1', NOW))[0]!.monthCount).toBe(12);
    await meters.release(NOW);
    expect((await store().listApiKeys('u1', NOW))[0]!.monthCount).toBe(10);
    expect(await store().apiKeyUsage('u1', '2026-11-24')).toEqual([expect.objectContaining({ requests: 10, refused: 0 })]);
    // A rest given back after its minute leaves that minute alone and comes off the month and its day.
    await meters.take(key, NOW);
    const later = new Date(NOW.getTime() + 120_000);
    expect((await meters.take(key, later)).rate.remaining).toBe(59);
    await meters.release(later);
    expect((await store().listApiKeys('u1', later))[0]!.monthCount).toBe(12);
    expect(await store().apiKeyUsage('u1', '2026-11-24')).toEqual([expect.objectContaining({ requests: 12, refused: 0 })]);
  });

  it('leases shrink near a limit, and a refused request is counted as refused, not as made', async () => {
    const key = keyOf('near', 'u1', { ratePerMinute: 100, monthlyQuota: 7 });
    await store().createApiKey(key, ACTOR);
    const meters = createMeterLeases(store());
    const readings = [];
    for (let i = 0; i < 9; i++) readings.push(await meters.take(key, NOW));
    expect(readings.filter((r) => r.allowed)).toHaveLength(7);
    expect(readings.at(-1)).toMatchObject({ allowed: false, limit: 'quota' });
    await meters.release(NOW);
    expect((await store().listApiKeys('u1', NOW))[0]!.monthCount).toBe(7);
    expect(await store().apiKeyUsage('u1', '2026-11-24')).toEqual([expect.objectContaining({ requests: 7, refused: 2 })]);
  });

  twinTest(backend, { isolated: true })('two instances leasing one key at once never let more than its rate through, and count exactly once given back', async () => {
    await withTwins(backend, async (a, b) => {
      const key = keyOf('twinlease', 'u1', { ratePerMinute: 40, monthlyQuota: 1000 });
      await a.createApiKey(key, ACTOR);
      const [ma, mb] = [createMeterLeases(a), createMeterLeases(b)];
      const readings = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? ma : mb).take(key, NOW)));
      const allowed = readings.filter((r) => r.allowed).length;
      expect(allowed).toBeLessThanOrEqual(40);
      // Leases shrink near the limit, so little is held back: at most a lease of four per instance.
      expect(allowed).toBeGreaterThanOrEqual(32);
      await Promise.all([ma.release(NOW), mb.release(NOW)]);
      expect((await a.listApiKeys('u1', NOW))[0]!.monthCount).toBe(allowed);
      expect(await a.apiKeyUsage('u1', '2026-11-24')).toEqual([expect.objectContaining({ requests: allowed, refused: 60 - allowed })]);
    });
  });

  it('refuses a key record no store may hold, writing nothing', async () => {
    await expect(attempt(() => store().importRecords('apiKeys', [keyOf('bad', 'u1', { hash: 'the-key-itself' })]))).rejects.toThrow(/SHA-256/);
    await expect(attempt(() => store().importRecords('apiKeys', [keyOf('ok', 'u1'), keyOf('bad', '')]))).rejects.toThrow(/owner/);
    expect(await store().listApiKeys('u1', NOW)).toEqual([]);
  });

  it('exports and imports keys, meters and usage as they are (store:copy), idempotently', async () => {
    const key = keyOf('copy', 'u1');
    await store().createApiKey(key, ACTOR);
    await store().meterApiKey(key, NOW);
    const keys: ApiKeyRecord[] = [];
    const meters: ApiKeyMeter[] = [];
    const usage: ApiKeyUsageDay[] = [];
    for await (const page of store().exportRecords('apiKeys')) keys.push(...page);
    for await (const page of store().exportRecords('apiKeyMeters')) meters.push(...page);
    for await (const page of store().exportRecords('apiKeyUsage')) usage.push(...page);
    expect([keys.length, meters.length, usage.length]).toEqual([1, 1, 1]);
    const target = await backend.open();
    try {
      for (let i = 0; i < 2; i++) {
        expect(await target.importRecords('apiKeys', keys)).toBe(1);
        expect(await target.importRecords('apiKeyMeters', meters)).toBe(1);
        expect(await target.importRecords('apiKeyUsage', usage)).toBe(1);
      }
      expect(await target.listApiKeys('u1', NOW)).toEqual(await store().listApiKeys('u1', NOW));
      expect(await target.apiKeyUsage('u1', '2026-11-01')).toEqual(await store().apiKeyUsage('u1', '2026-11-01'));
      // The copied meter goes on counting where it was.
      expect((await target.meterApiKey(key, NOW)).rate.remaining).toBe(1);
    } finally {
      await target.close();
    }
  });
});
