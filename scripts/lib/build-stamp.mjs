// Decides whether the production build is older than its sources, so `npm start` builds only when needed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package-lock.json'];
const STAMP = 'dist/.build-stamp';

function* files(path) {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) yield* files(join(path, name));
  } else {
    yield [path, stat.size, stat.mtimeMs];
  }
}

export function sourceFingerprint(root = '.') {
  const hash = createHash('sha256');
  for (const source of SOURCES) for (const entry of files(join(root, source))) hash.update(entry.join('\0') + '\n');
  return hash.digest('hex');
}

export function buildIsCurrent(root = '.') {
  const stamp = join(root, STAMP);
  return existsSync(join(root, 'dist/server/entry.mjs')) && existsSync(join(root, 'dist/server/serve.mjs')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === sourceFingerprint(root);
}

export function writeBuildStamp(root = '.') {
  writeFileSync(join(root, STAMP), sourceFingerprint(root));
}
