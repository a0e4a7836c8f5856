import { describe, expect, it } from 'vitest';
import config from '../../astro.config.mjs';

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
