/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';
import { TEST_DATA_DIR, TEST_EMULATOR_HOST } from './tests/integration/env.ts';

// astro:env resolves its values when the config loads, so the test environment is set first.
const testEnv = {
  METADATA_SERVER_DETECTION: 'none',
  ASTRO_TELEMETRY_DISABLED: '1',
  FIREBASE_AUTH_EMULATOR_HOST: TEST_EMULATOR_HOST,
  DATA_DIR: TEST_DATA_DIR,
};
Object.assign(process.env, testEnv);

// getViteConfig gives tests Astro's virtual modules (astro:content, astro:env) as the site sees them.
export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/contract/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites share one emulator and start servers on fixed loopback ports.
    fileParallelism: false,
    // The auth emulator; the content store where Vitest's astro:content reads it.
    globalSetup: ['tests/integration/globalSetup.ts', 'tests/setup/contentStore.ts'],
    env: testEnv,
  },
});
