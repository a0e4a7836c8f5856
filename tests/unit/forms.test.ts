import { describe, expect, it } from 'vitest';
import { authErrorMessage, GENERIC_AUTH_ERROR } from '../../src/lib/authErrors.ts';
import { startOfIndianDay, timeLeftLabel } from '../../src/lib/countdown.ts';
import { gstinCheckCharacter, isValidGstin } from '../../src/lib/gstin.ts';
import { isAuthEmulatorMode, isLoopbackHost, unsafeModeReasons } from '../../src/lib/modes.ts';
import { safeNextPath } from '../../src/lib/redirects.ts';

describe('?next= after sign-in', () => {
  it.each([
    ['/crude/Naphtha', '/crude/Naphtha'],
    ['/crude/Naphtha?country=japan#chart', '/crude/Naphtha?country=japan#chart'],
    ['/', '/'],
  ])('keeps the same-origin path %s', (next, expected) => expect(safeNextPath(next)).toBe(expected));

  it.each([null, undefined, '', 'crude', '//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/\t/evil.example', `/${'a'.repeat(3000)}`])(
    'falls back to / for %j',
    (next) => expect(safeNextPath(next)).toBe('/'),
  );
});

describe('GSTIN', () => {
  it('accepts real GSTINs and computes their check character', () => {
    expect(isValidGstin('27AAPFU0939F1ZV')).toBe(true);
    expect(isValidGstin(' 27aabcp1234f1zu ')).toBe(true);
    expect(gstinCheckCharacter('27AABCP1234F1Z')).toBe('U');
  });
  it.each(['27AAPFU0939F1ZA', '27AAPFU0939F1Z', '99AAPFU0939F1ZV', '27AAPFU0939F1XV', '', 'not a gstin at all'])('rejects %j', (gstin) =>
    expect(isValidGstin(gstin)).toBe(false),
  );
});

describe('auth error messages', () => {
  it.each([
    ['auth/wrong-password', 'Wrong e-mail or password.'],
    ['auth/invalid-credential', 'Wrong e-mail or password.'],
    ['auth/email-already-in-use', 'An account with this e-mail already exists. Sign in instead.'],
    ['auth/user-not-found', 'There is no account with this e-mail. Create one instead.'],
    ['auth/too-many-requests', 'Too many attempts. Please wait a few minutes and try again.'],
    ['auth/invalid-phone-number', 'That phone number is not valid. Use the international form, e.g. +91 98765 43210.'],
    ['auth/invalid-verification-code', 'That code is not right. Check the SMS and try again.'],
    ['auth/network-request-failed', 'Network problem: check your connection and try again.'],
  ])('%s', (code, message) => expect(authErrorMessage({ code })).toBe(message));
  it('falls back to a generic message', () => {
    expect(authErrorMessage({ code: 'auth/something-new' })).toBe(GENERIC_AUTH_ERROR);
    expect(authErrorMessage(new Error('boom'))).toBe(GENERIC_AUTH_ERROR);
    expect(authErrorMessage(null)).toBe(GENERIC_AUTH_ERROR);
  });
});

describe('loopback-only modes', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])('%s is loopback', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(['0.0.0.0', '192.168.1.10', 'polyindex.in', '::', '128.0.0.1', '::ffff:10.0.0.1', '', 'unknown'])('%s is not', (host) => expect(isLoopbackHost(host)).toBe(false));
  it('is in emulator mode exactly when no service account is set', () => {
    expect(isAuthEmulatorMode(undefined)).toBe(true);
    expect(isAuthEmulatorMode('')).toBe(true);
    expect(isAuthEmulatorMode('{"type":"service_account"}')).toBe(false);
  });
  it('refuses FIREBASE_AUTH_EMULATOR_HOST beside a service account on every host: firebase-admin would take unsigned tokens', () => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      expect(unsafeModeReasons({ host, authEmulator: false, authEmulatorHost: '127.0.0.1:9099', sandboxPayments: false, deliveryLinkSecret: true })).toEqual([
        expect.stringContaining('FIREBASE_AUTH_EMULATOR_HOST is set beside FIREBASE_SERVICE_ACCOUNT'),
      ]);
    }
    // Emulator mode sets it itself (loopback only); real mode without it starts anywhere.
    expect(unsafeModeReasons({ host: '127.0.0.1', authEmulator: true, authEmulatorHost: '127.0.0.1:9099', sandboxPayments: false })).toEqual([]);
    expect(unsafeModeReasons({ host: '0.0.0.0', authEmulator: true, authEmulatorHost: '127.0.0.1:9099', sandboxPayments: false, deliveryLinkSecret: true })).toEqual([
      expect.stringContaining('Firebase Auth emulator accepts unsigned tokens'),
    ]);
    expect(unsafeModeReasons({ host: '0.0.0.0', authEmulator: false, authEmulatorHost: '', sandboxPayments: false, deliveryLinkSecret: true })).toEqual([]);
  });
  it('refuses the emulator and the sandbox off loopback, and nothing on loopback', () => {
    expect(unsafeModeReasons({ host: '0.0.0.0', authEmulator: true, sandboxPayments: true, deliveryLinkSecret: true })).toHaveLength(2);
    expect(unsafeModeReasons({ host: '0.0.0.0', authEmulator: false, sandboxPayments: false, deliveryLinkSecret: true })).toEqual([]);
    expect(unsafeModeReasons({ host: '127.0.0.1', authEmulator: true, sandboxPayments: true })).toEqual([]);
  });
  it('refuses a Firestore emulator as the store off loopback', () => {
    const reasons = unsafeModeReasons({ host: '0.0.0.0', authEmulator: false, sandboxPayments: false, firestoreEmulator: true, deliveryLinkSecret: true });
    expect(reasons).toEqual([expect.stringContaining('FIRESTORE_EMULATOR_HOST')]);
    expect(unsafeModeReasons({ host: '::1', authEmulator: false, sandboxPayments: false, firestoreEmulator: true })).toEqual([]);
  });
});

describe('countdown', () => {
  it('starts an Indian day at 18:30 UTC the evening before', () => {
    expect(startOfIndianDay('2026-11-24').toISOString()).toBe('2026-11-23T18:30:00.000Z');
  });
  it('labels what is left', () => {
    const now = new Date('2026-11-22T04:30:00Z');
    expect(timeLeftLabel(new Date('2026-11-23T18:30:00Z'), now)).toBe('1 day 14 h');
    expect(timeLeftLabel(new Date('2026-11-22T06:30:00Z'), now)).toBe('2 h');
    expect(timeLeftLabel(new Date('2026-11-22T04:40:00Z'), now)).toBe('10 min');
    expect(timeLeftLabel(now, now)).toBeNull();
  });
});
