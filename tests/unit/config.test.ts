import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../astro.config.mjs';
import { ConfigError, readConfig, SETTINGS, type SettingField } from '../../src/server/config/settings.ts';

describe('astro:env schema', () => {
  it('reads every run-time setting at run time: one build serves every configuration', () => {
    // Public server variables are inlined into the build; a build made for the tests would
    // then talk to the tests' emulator and data directory in production.
    const schema = config.env?.schema ?? {};
    const buildTime = Object.entries(schema)
      .filter(([, field]) => (field as { access?: string }).access === 'public')
      .map(([name]) => name)
      .sort();
    expect(buildTime).toEqual(['CONTACT_EMAIL', 'CONTACT_GSTIN', 'CONTACT_PHONE']);
    for (const name of ['DATA_DIR', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_SERVICE_ACCOUNT', 'RAZORPAY_KEY_ID']) expect(schema).toHaveProperty(name);
  });
});

describe('the one reading of the settings (src/server/config/settings.ts)', () => {
  const read = (env: Record<string, string>) => readConfig((name) => env[name]);

  it('resolves every default once: HOST, PORT, DATA_DIR (absolute), the Auth emulator, the embedded default’s modes', () => {
    const config = read({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 4321, dataDir: resolve('./data'), adminPanelUrl: '/admin', loopbackOrigin: 'http://127.0.0.1:4321' });
    expect(config.firebase).toMatchObject({ projectId: 'demo-polyindex', authDomain: 'demo-polyindex.firebaseapp.com', authEmulatorHost: '127.0.0.1:9099', authEmulatorHostSetting: undefined });
    expect(config.modes).toEqual({ authEmulator: true, sandboxPayments: true, whatsappSandbox: true, firestoreEmulator: false, loopbackOnly: true });
    expect(config.jobs).toEqual({ secret: null, inServerScheduler: true });
    expect(config.feed).toEqual({ ratePerMinute: 60, monthlyQuota: 50_000 });
    expect(read({ FEED_RATE_PER_MINUTE: '600', FEED_MONTHLY_QUOTA: '2000000' }).feed).toEqual({ ratePerMinute: 600, monthlyQuota: 2_000_000 });
  });

  it('keeps the forecasts\' test clock file (absolute) only in the Auth emulator\'s mode; unset, there is none', () => {
    expect(read({ FORECAST_TEST_CLOCK_FILE: 'clock.json' }).forecastTestClockFile).toBe(resolve('clock.json'));
    expect(read({}).forecastTestClockFile).toBeUndefined();
  });

  it('takes a blank value for an unset one (a stray FIREBASE_SERVICE_ACCOUNT=" " is not a real project)', () => {
    expect(read({ FIREBASE_SERVICE_ACCOUNT: '  ', HOST: '', JOBS_SECRET: ' ' })).toMatchObject({ host: '127.0.0.1', modes: { authEmulator: true }, jobs: { secret: null } });
  });

  it('derives the modes from the keys: real Firebase and Razorpay are not loopback-only', () => {
    const config = read({ FIREBASE_SERVICE_ACCOUNT: '{}', RAZORPAY_KEY_ID: 'rzp_live_k', RAZORPAY_KEY_SECRET: 's', WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1', DATA_BACKEND: 'firestore', PORT: '8080', HOST: '0.0.0.0' });
    expect(config.modes).toEqual({ authEmulator: false, sandboxPayments: false, whatsappSandbox: false, firestoreEmulator: false, loopbackOnly: false });
    expect(config.payments.mode).toBe('razorpay');
    expect(config.port).toBe(8080);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT must be 0–65535/],
    [{ DATA_BACKEND: 'mongo' }, /DATA_BACKEND must be one of sqlite, firestore/],
    [{ JOBS_SCHEDULER: 'sometimes' }, /JOBS_SCHEDULER must be one of on, off/],
    [{ SITE_URL: 'polyindex.in' }, /SITE_URL must be an http or https URL/],
    // The forecasts' test clock exists only beside the Auth emulator (src/server/forecasts/clock.ts).
    [{ FORECAST_TEST_CLOCK_FILE: '/tmp/clock.json', FIREBASE_SERVICE_ACCOUNT: '{}' }, /FORECAST_TEST_CLOCK_FILE is for tests with the Auth emulator only/],
    [{ FEED_RATE_PER_MINUTE: '0' }, /FEED_RATE_PER_MINUTE must be a whole number of requests/],
    [{ FEED_MONTHLY_QUOTA: '1.5' }, /FEED_MONTHLY_QUOTA must be a whole number of requests/],
  ])('refuses %o, naming the setting', (env, message) => {
    expect(() => read(env)).toThrow(ConfigError);
    expect(() => read(env)).toThrow(message);
  });

  it('makes the astro:env schema: every setting of the list, each with its default', () => {
    const schema = (config.env?.schema ?? {}) as Record<string, { default?: unknown; optional?: boolean }>;
    expect(Object.keys(schema).toSorted()).toEqual(Object.keys(SETTINGS).toSorted());
    for (const [name, field] of Object.entries(SETTINGS) as [string, SettingField][]) {
      if (field.default !== undefined) expect(schema[name]?.default, name).toBe(field.default);
      else expect(schema[name]?.optional, name).toBe(true);
    }
  });
});
