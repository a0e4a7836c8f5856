/**
 * Secrets the embedded default makes for itself: a configured one when given, otherwise a random
 * secret created once and kept in a file of the data directory (0600), so restarts and several
 * processes on one DATA_DIR agree on it. Loopback only: instances off loopback must be given the
 * same secret (the start-up checks say which).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function keptSecret(dataDir: string, file: string, configured?: string): string {
  if (configured) return configured;
  const path = join(dataDir, file);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept) return kept;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    writeFileSync(path, `${secret}\n`, { flag: 'wx', mode: 0o600 });
  } catch {
    // Another process wrote it first: use theirs.
    return readFileSync(path, 'utf8').trim();
  }
  chmodSync(path, 0o600);
  return secret;
}
