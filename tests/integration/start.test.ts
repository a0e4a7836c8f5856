/** `npm start` refuses to serve the emulator's unsigned tokens beyond loopback. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const start = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });

describe('start-up safety', () => {
  it('refuses a non-loopback HOST in emulator and sandbox mode, before building anything', () => {
    const result = start({ HOST: '0.0.0.0', PORT: '4999', DATA_DIR: '.cache/vitest-data/refused', FIREBASE_SERVICE_ACCOUNT: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('refusing to serve 0.0.0.0');
    expect(result.stderr).toContain('Firebase Auth emulator');
    expect(result.stdout).not.toContain('building');
  });

  it('refuses FIREBASE_AUTH_EMULATOR_HOST beside a service account, on loopback too, before building anything', () => {
    const result = start({
      HOST: '127.0.0.1',
      PORT: '4999',
      DATA_DIR: '.cache/vitest-data/refused',
      FIREBASE_SERVICE_ACCOUNT: '{"type":"service_account","project_id":"demo-leftover"}',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('refusing to serve 127.0.0.1');
    expect(result.stderr).toContain('FIREBASE_AUTH_EMULATOR_HOST is set beside FIREBASE_SERVICE_ACCOUNT');
    expect(result.stdout).not.toContain('building');
  });
});
