// SQLite internals of the price store (the port's behaviour is tests/contract/prices.contract.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allSeries, feedstockSeriesId } from '../../src/lib/seriesCatalog.ts';
import { openStore, sqliteUrlFor, type Store } from '../../src/server/store/index.ts';

let dir: string;
let store: Store;
const NAPHTHA = feedstockSeriesId('Naphtha', 'japan');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'polyindex-prices-'));
  store = await openStore({ url: sqliteUrlFor(dir) });
  await store.upsertSeries(allSeries);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('points', () => {
  it('answers a chart read from the primary-key index', async () => {
    // The adapter's range query, explained by SQLite: a search on the primary key, no scan, no sort.
    const { createClient } = await import('@libsql/client');
    const client = createClient({ url: sqliteUrlFor(dir) });
    const plan = await client.execute({
      sql: 'EXPLAIN QUERY PLAN SELECT date, value FROM price_points WHERE series_id = ? AND date >= ? AND date <= ? ORDER BY date',
      args: [NAPHTHA, '2020-01-01', '2020-12-31'],
    });
    const detail = plan.rows.map((r) => String(r['detail'])).join(' | ');
    client.close();
    expect(detail).toMatch(/SEARCH price_points USING PRIMARY KEY/);
    expect(detail).not.toMatch(/TEMP B-TREE/);
  });
});
