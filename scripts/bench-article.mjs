#!/usr/bin/env node
// The JavaScript a public article ships, gzipped (issue 6: "a public article ships no JavaScript
// beyond the header's session island"). Articles are rendered on demand from the store (issue
// 12), so this script serves the production build in-process (the adapter's handler on a
// loopback port, a fresh DATA_DIR with the demo posts), fetches the article, collects every
// script it references — module scripts, module preloads, island component and renderer URLs,
// inline scripts — follows each chunk's static imports under dist/client, and prints the
// gzipped size of each and the total. Fails when the article hydrates an island other than the
// header's session island.
//
//   node scripts/bench-article.mjs [/news/{slug}]      (default: the newest public article)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildIsCurrent, writeBuildStamp } from './lib/build-stamp.mjs';

const CLIENT = 'dist/client';
const ALLOWED_ISLANDS = ['HeaderSession'];

if (!buildIsCurrent()) {
  console.log('[bench-article] building the site…');
  // This Node runs Astro's CLI, so the script works outside npm scripts too (no PATH needed).
  const build = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], { stdio: 'inherit', env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  if (build.status !== 0) {
    console.error('[bench-article] the build failed', build.error ?? '');
    process.exit(build.status ?? 1);
  }
  writeBuildStamp();
}

// The built server, not started on its own port: its handler behind a loopback server of ours.
const dataDir = mkdtempSync(join(tmpdir(), 'polyindex-bench-article-'));
Object.assign(process.env, { ASTRO_NODE_AUTOSTART: 'disabled', DATA_DIR: dataDir, HOST: '127.0.0.1', METADATA_SERVER_DETECTION: 'none' });
const { handler } = await import(join(process.cwd(), 'dist/server/entry.mjs'));
const server = createServer(handler);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const fetchText = async (path) => {
  const response = await fetch(new URL(path, origin));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.text();
};

/** The newest public article: the first feed item that carries its full text. */
async function defaultArticle() {
  const feed = await fetchText('/rss.xml');
  const item = feed.split('<item>').slice(1).find((i) => i.includes('<content:encoded>'));
  const link = item && /<link>([^<]+)<\/link>/.exec(item)?.[1];
  if (!link) throw new Error('no public article in the feed');
  return new URL(link).pathname.replace(/\/$/, '');
}

let html;
let article;
try {
  article = process.argv[2] ?? (await defaultArticle());
  html = await fetchText(article);
} finally {
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const attr = (tag, name) => new RegExp(`\\s${name}="([^"]+)"`).exec(tag)?.[1];
const entries = new Set();
for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) {
  const src = attr(tag, 'src');
  if (src) entries.add(src);
}
for (const [tag] of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/g)) entries.add(attr(tag, 'href'));
const islands = [];
for (const [tag] of html.matchAll(/<astro-island\b[^>]*>/g)) {
  const component = attr(tag, 'component-url');
  const renderer = attr(tag, 'renderer-url');
  if (component) entries.add(component);
  if (renderer) entries.add(renderer);
  islands.push(/"name":"([^"]+)"/.exec((attr(tag, 'opts') ?? '').replaceAll('&quot;', '"'))?.[1] ?? component);
}
// Inline scripts (Astro's island loader, small helpers), JSON-LD excepted: it is data, not code.
const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
  .filter(([, attrs, body]) => !/\ssrc=/.test(attrs) && !/type="application\/ld\+json"/.test(attrs) && body.trim() !== '')
  .map(([, , body]) => body);

/** Static imports of an ES module chunk: `import … from "./x.js"`, `import "./x.js"`, `export … from`. */
const importsOf = (code) => [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]*?\s*from\s*)?["']([^"']+\.js)["']/g)].map((m) => m[1]);

const seen = new Map();
const queue = [...entries].filter(Boolean);
while (queue.length > 0) {
  const url = queue.shift();
  if (seen.has(url) || !url.startsWith('/')) continue;
  const code = readFileSync(join(CLIENT, url), 'utf8');
  seen.set(url, gzipSync(code, { level: 9 }).length);
  for (const spec of importsOf(code)) queue.push(spec.startsWith('/') ? spec : posix.join(posix.dirname(url), spec));
}

const inlineGzip = inline.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
const total = [...seen.values()].reduce((a, b) => a + b, 0) + inlineGzip;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

console.log(`JavaScript shipped by ${article} (gzip -9):`);
for (const [url, size] of [...seen.entries()].sort((a, b) => b[1] - a[1])) console.log(`  ${kb(size).padStart(9)}  ${url}`);
console.log(`  ${kb(inlineGzip).padStart(9)}  ${inline.length} inline script(s)`);
console.log(`  ${kb(total).padStart(9)}  total`);
console.log(`  islands: ${islands.join(', ') || 'none'}`);

const extra = islands.filter((name) => !ALLOWED_ISLANDS.includes(name));
if (extra.length > 0) {
  console.error(`[bench-article] a public article must hydrate only ${ALLOWED_ISLANDS.join(', ')}; found ${extra.join(', ')}`);
  process.exit(1);
}
