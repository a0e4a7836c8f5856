// `npm run data:check` as a child process on a seeded SQLite store: 0 findings and exit 0 on the
// demo data as the seed writes it; then contradictions written into the store as a desk could
// (a city-wise price half a rupee off, a post's quoted price edited) are reported and exit 1.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/lib/demoData.ts';
import { readQuotes } from '../../src/lib/newsQuotes.ts';
import { priceLines } from '../../src/lib/priceLines.ts';
import { postOfSeed, quotePosts } from '../../src/server/posts/seed.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';
import { writeDemoData } from '../../src/server/store/seedDemo.ts';

const run = promisify(execFile);
const NODE = 'node_modules/.bin/node';
const TODAY = '2026-11-26';

let dir: string;
let store: Store;
const check = async (...args: string[]) => {
  try {
    const { stdout } = await run(NODE, ['scripts/data-check.ts', ...args], { env: { ...process.env, DATA_DIR: dir, FIRESTORE_EMULATOR_HOST: '' }, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'data-check-'));
  store = await openStore({ url: sqliteUrlFor(dir) });
  const data = generateDemoData({ today: TODAY });
  const { stored } = await writeDemoData(store, data, TODAY);
  const body = 'PP raffia ex-works Mumbai this week: {{price historical.ppRaffia.mumbai}}; city-wise Mumbai {{price city.mumbai.ppRaffia}}; Reliance {{price list.reliance.ppRaffia.jamnagar}} ex-Jamnagar, {{revision list.reliance.ppRaffia.jamnagar}}.';
  const seed = postOfSeed('2026-11-18-week-47', { title: 'PP this week', type: 'rateRevision', date: '2026-11-18', summary: 'PP ex-works Mumbai this week, from the data.', access: 'public', author: 'PolyIndex Desk', tags: [] }, body);
  const quoted = quotePosts([seed], priceLines(stored));
  expect(quoted.skipped).toEqual([]);
  await store.seedPosts(quoted.posts);
}, 300_000);

afterAll(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run data:check', () => {
  it('finds nothing on the demo data as seeded, with the model’s links', { timeout: 300_000 }, async () => {
    await store.close();
    const result = await check('--model');
    expect(result.stdout).toMatch(/0 pairs on one basis .* values against the demo model's links, 4 prices quoted in 1 posts: 0 findings/);
    expect(result.code).toBe(0);
    store = await openStore({ url: sqliteUrlFor(dir) });
  });

  it('reports a city-wise price off its link and a post that quotes what the data did not say, and exits 1', { timeout: 300_000 }, async () => {
    const [row] = (await store.latestCitySheet('mumbai')).filter((r) => r.grade === 'ppRaffia');
    // The whole quote moved (a range keeps its mid): the price off its link to Mumbai ex-works.
    const moved = (n: number | undefined) => (n === undefined ? undefined : n - 1.5);
    await store.upsertCityPrices([{ ...row!, price: row!.price - 1.5, ...(row!.low === undefined ? {} : { low: moved(row!.low), high: moved(row!.high) }) }]);
    // The post as an editor might leave it: the figure typed over.
    const post = (await store.getPost('2026-11-18-week-47'))!;
    const [first] = readQuotes(post.body);
    const written = await store.updatePost({
      id: post.id,
      change: (current) => ({ ok: true, post: { ...current, body: current.body.replace(`>${first!.text}<`, '>₹101.50/kg<') } }),
      actor: { uid: 'desk', email: 'desk@polyindex.test' },
      action: 'post.update',
      now: new Date(),
    });
    expect(written.kind).toBe('written');
    await store.close();
    const result = await check('--model');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`[relation] PP Raffia · Mumbai (city-wise) is ${row!.price - 1.5} on ${row!.date}`);
    expect(result.stdout).toContain(`[news] post 2026-11-18-week-47 quotes "₹101.50/kg" for ${first!.ref}: the data of 2026-11-18 says ${first!.text}`);
    expect(result.stdout).toMatch(/: 2 findings$/m);
    // Without the model's links: the news finding only (real data has no model).
    const withoutModel = await check();
    expect(withoutModel.code).toBe(1);
    expect(withoutModel.stdout).not.toContain('[relation]');
    expect(withoutModel.stdout).toMatch(/: 1 finding$/m);
    store = await openStore({ url: sqliteUrlFor(dir) });
  });
});
