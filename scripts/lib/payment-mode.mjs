// Refuses to start in sandbox payments (or real payments without https) on a non-loopback
// HOST. The rule lives in src/server/payments/mode.ts (Node 24 runs it by stripping types).
import { readConfig } from '../../src/server/config/settings.ts';
import { assertSafeMode } from '../../src/server/payments/mode.ts';

export function assertSafePaymentMode(env = process.env) {
  return assertSafeMode(readConfig((name) => env[name]).host, env);
}
