import { describe, expect, it } from 'vitest';
import { canonicalJson, checksumOf, identityOf, sha256Hex, summarize } from '../../src/server/store/checksum.ts';

describe('sha256', () => {
  it('matches the standard vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('stable values', () => {
  // Computed by the hand-written SHA-256 the checksum used before it moved to node:crypto: a
  // manifest or copy report made before the move still matches.
  it('are the values of every earlier version', () => {
    expect(summarize('users', [{ uid: 'b', email: 'b@x', extra: { k: [1, 2] } }, { uid: 'a', email: null }]).checksum).toBe('d93e74db00a283cabc05b7029e75d5da6031061929ca87271b4e4cbb9f811d53');
    expect(summarize('audit', [{ id: 9, at: 'x', actor: { uid: 'u', email: null }, before: null, after: { a: '₹' } }, { id: 10 }]).checksum).toBe('054be1284b5e700d57da73da784bf99c5afccf5b64c3299a0f7215f73d29cabb');
    expect(summarize('points', [{ seriesId: 's', date: '2025-01-02', value: 3 }]).checksum).toBe('48d220c96f68394bdd8ab1706c7bdfdf714892bbf37df6dd270feb808238822c');
  });
});

describe('canonical form', () => {
  it('sorts keys at every depth, keeps array order, drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ x: 1.0, y: -0 })).toBe(canonicalJson({ y: 0, x: 1 }));
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
  });

  it('identifies records by their kind\'s keys, integers sorting numerically', () => {
    expect(identityOf('points', { seriesId: 's', date: '2025-01-02', value: 3 })).toBe('s\u00002025-01-02');
    expect(identityOf('audit', { id: 9 }) < identityOf('audit', { id: 10 })).toBe(true);
  });
});

describe('checksums', () => {
  const users = [
    { uid: 'b', email: 'b@x', extra: { k: [1, 2] } },
    { uid: 'a', email: null },
  ];

  it('do not depend on record order, page boundaries or key order', () => {
    const one = summarize('users', users);
    const other = checksumOf('users');
    other.add([{ email: null, uid: 'a' }]);
    other.add([{ extra: { k: [1, 2] }, email: 'b@x', uid: 'b' }]);
    expect(other.summary()).toEqual(one);
    expect(one.count).toBe(2);
    expect(one.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('change with any value, a lost record or a duplicate', () => {
    const base = summarize('users', users).checksum;
    expect(summarize('users', [{ ...users[0], extra: { k: [2, 1] } }, users[1]!]).checksum).not.toBe(base);
    expect(summarize('users', [users[0]!]).checksum).not.toBe(base);
    expect(summarize('users', [...users, users[1]!])).not.toEqual(summarize('users', users));
    expect(summarize('users', []).count).toBe(0);
  });
});
