import { describe, expect, it } from 'vitest';
import { createBodyCache } from '../../src/server/http/bodyCache.ts';
import { etagOf, matchesIfNoneMatch } from '../../src/server/http/json.ts';

describe('body cache', () => {
  it('computes once per key and version, and again after a write or the TTL', async () => {
    let clock = 0;
    let calls = 0;
    const cache = createBodyCache({ ttlMs: 1000, now: () => clock });
    const compute = async () => `body-${++calls}`;
    expect((await cache.get('k', 1, compute)).body).toBe('body-1');
    expect((await cache.get('k', 1, compute)).body).toBe('body-1');
    expect((await cache.get('k', 2, compute)).body).toBe('body-2'); // the store was written
    clock = 999;
    expect((await cache.get('k', 2, compute)).body).toBe('body-2');
    clock = 1001;
    expect((await cache.get('k', 2, compute)).body).toBe('body-3'); // expired
    expect((await cache.get('k', 2, compute)).etag).toBe(etagOf('body-3'));
  });

  it('shares one computation between concurrent requests and does not keep failures', async () => {
    const cache = createBodyCache();
    let calls = 0;
    const slow = () => new Promise<string>((ok) => setTimeout(() => ok(`v${++calls}`), 10));
    const [a, b] = await Promise.all([cache.get('k', 0, slow), cache.get('k', 0, slow)]);
    expect(a).toBe(b);
    expect(calls).toBe(1);
    await expect(cache.get('bad', 0, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect((await cache.get('bad', 0, async () => 'ok')).body).toBe('ok');
  });

  it('evicts the least recently used entry beyond max', async () => {
    const cache = createBodyCache({ max: 2 });
    let calls = 0;
    const compute = async () => `v${++calls}`;
    await cache.get('a', 0, compute);
    await cache.get('b', 0, compute);
    await cache.get('a', 0, compute); // a is now the most recent
    await cache.get('c', 0, compute); // evicts b
    expect(cache.size).toBe(2);
    expect((await cache.get('a', 0, compute)).body).toBe('v1');
    expect((await cache.get('b', 0, compute)).body).toBe('v4');
  });
});

describe('If-None-Match', () => {
  it('matches strong and weak forms, lists and *', () => {
    const tag = '"abc"';
    expect(matchesIfNoneMatch('"abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('*', tag)).toBe(true);
    expect(matchesIfNoneMatch('"abcd"', tag)).toBe(false);
    expect(matchesIfNoneMatch(null, tag)).toBe(false);
  });
});
