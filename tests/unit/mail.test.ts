import { describe, expect, it } from 'vitest';
import { createRateLimiter, MAIL_LIMITS } from '../../src/server/mail/rateLimit.ts';
import { routeMessage } from '../../src/server/mail/relay.ts';

describe('sliding-window rate limiter', () => {
  it('allows 5 a minute, then says how long to wait; the window slides', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(MAIL_LIMITS, () => now);
    for (let i = 0; i < 5; i++) {
      expect(limiter.hit(['ip:a'])).toEqual({ ok: true });
      now += 1000;
    }
    expect(limiter.hit(['ip:a'])).toEqual({ ok: false, retryAfterSeconds: 55 });
    now += 55_000;
    expect(limiter.hit(['ip:a'])).toEqual({ ok: true });
    expect(limiter.hit(['ip:b'])).toEqual({ ok: true });
  });

  it('allows 30 a day', () => {
    let now = 0;
    const limiter = createRateLimiter(MAIL_LIMITS, () => now);
    for (let i = 0; i < 30; i++) {
      expect(limiter.hit(['user:u']).ok).toBe(true);
      now += 61_000;
    }
    const refused = limiter.hit(['user:u']);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterSeconds).toBe(86_400 - 30 * 61);
  });

  it('refuses when any key is over, and then counts none', () => {
    let now = 0;
    const limiter = createRateLimiter([{ windowMs: 1000, max: 1 }], () => now);
    expect(limiter.hit(['ip:x', 'user:1']).ok).toBe(true);
    expect(limiter.hit(['ip:y', 'user:1']).ok).toBe(false);
    now = 1001;
    expect(limiter.hit(['ip:y']).ok).toBe(true);
    expect(limiter.hit(['ip:x']).ok).toBe(true);
  });
});

describe('who a message goes to (no open relay)', () => {
  const users = new Set(['reader@example.test']);
  const isUser = async (email: string) => users.has(email);
  const op = 'desk@polyindex.test';

  it.each([
    ['anonymous, to someone', { email: null, admin: false }, { to: 'x@else.example', replyTo: 'me@example.test' }, { ok: true, to: op, replyTo: 'me@example.test', toOperator: true }],
    ['signed in, to someone', { email: 'm@example.test', admin: false }, { to: 'x@else.example', replyTo: 'x@else.example' }, { ok: true, to: op, replyTo: 'm@example.test', toOperator: true }],
    ['signed in, to a user', { email: 'm@example.test', admin: false }, { to: 'reader@example.test' }, { ok: true, to: op, replyTo: 'm@example.test', toOperator: true }],
    ['admin, to a user', { email: 'a@polyindex.test', admin: true }, { to: 'reader@example.test' }, { ok: true, to: 'reader@example.test', replyTo: 'a@polyindex.test', toOperator: false }],
    ['admin, to a stranger', { email: 'a@polyindex.test', admin: true }, { to: 'x@else.example' }, { ok: false, field: 'to' }],
    ['admin, no to', { email: 'a@polyindex.test', admin: true }, {}, { ok: true, to: op, replyTo: 'a@polyindex.test', toOperator: true }],
    ['anonymous, no reply address', { email: null, admin: false }, { to: 'x@else.example' }, { ok: false, field: 'replyTo' }],
  ] as const)('%s', async (_name, sender, input, expected) => {
    expect(await routeMessage(sender, input, op, isUser)).toMatchObject(expected);
  });
});
