/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// getViteConfig gives tests Astro's virtual modules (astro:content, astro:env) as the site sees them.
export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/contract/**/*.test.ts'],
    environment: 'node',
    // Content store where Vitest reads it; DATA_DIR in a temp dir (see the file).
    globalSetup: ['tests/setup/global.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites start real servers (emulator, SMTP, fake Razorpay) on fixed loopback ports.
    fileParallelism: false,
    env: { METADATA_SERVER_DETECTION: 'none', ASTRO_TELEMETRY_DISABLED: '1' },
  },
});
