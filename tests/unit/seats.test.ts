import { describe, expect, it } from 'vitest';
import { plans } from '../../src/lib/plans.ts';
import { colleagueSeatsOf, INVITE_VALID_DAYS, inviteExpiryOf, joinLinkOf, parseInviteToken, seatEmailKey, seatState } from '../../src/lib/seats.ts';

const NOW = new Date('2026-11-27T06:00:00.000Z');
const SECRET = 'A'.repeat(42) + '_';

describe('team seats: the pure rules', () => {
  it('an invitation works for INVITE_VALID_DAYS days, to the millisecond', () => {
    expect(INVITE_VALID_DAYS).toBe(7);
    const expires = inviteExpiryOf(NOW);
    expect(expires).toBe('2026-12-04T06:00:00.000Z');
    expect(seatState({ status: 'pending', inviteExpiresAt: expires }, new Date(Date.parse(expires) - 1))).toBe('invited');
    expect(seatState({ status: 'pending', inviteExpiresAt: expires }, new Date(expires))).toBe('expired');
    // A held seat does not expire with its invitation.
    expect(seatState({ status: 'held', inviteExpiresAt: expires }, new Date('2030-01-01'))).toBe('held');
  });

  it('the plan table says how many colleagues: seats − 1', () => {
    expect(Object.fromEntries(plans.map((p) => [p.id, colleagueSeatsOf(p)]))).toEqual({ Basic: 0, Standard: 0, Premium: 0, Platinum: 4 });
    expect(colleagueSeatsOf(undefined)).toBe(0);
  });

  it('a token is a seat id and a 43-character secret; anything else is no token', () => {
    expect(parseInviteToken(`abcdefgh12345678.${SECRET}`)).toEqual({ id: 'abcdefgh12345678', secret: SECRET });
    expect(parseInviteToken(` abcdefgh12345678.${SECRET} `)).toEqual({ id: 'abcdefgh12345678', secret: SECRET });
    for (const bad of ['', 'abcdefgh12345678', `ABCDEFGH12345678.${SECRET}`, `abcdefgh1234567.${SECRET}`, `abcdefgh12345678.${SECRET}x`, `abcdefgh12345678.${SECRET.slice(1)}=`, `abcdefgh12345678/${SECRET}`]) {
      expect(parseInviteToken(bad), bad).toBeNull();
    }
  });

  it('addresses compare without case or spaces; the link is absolute and encoded', () => {
    expect(seatEmailKey('  Ravi.Shah@Firm.IN ')).toBe('ravi.shah@firm.in');
    expect(joinLinkOf('https://polyindex.in/', `abcdefgh12345678.${SECRET}`)).toBe(`https://polyindex.in/account/join?invite=abcdefgh12345678.${SECRET}`);
  });
});
