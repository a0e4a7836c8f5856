/**
 * The desk's producer list prices (form and CSV import) against the real SQLite store of the
 * test DATA_DIR: refused to non-admins, every bad input a clear 400 naming its field with nothing
 * written, dates no later than today in India, an import all or nothing, and every write audited.
 */
import type { APIContext, APIRoute } from 'astro';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import { PRODUCER_CSV_HEADER, revisionsOf } from '../../src/lib/producerPrices.ts';
import { POST as importRoute } from '../../src/pages/api/admin/producer-prices/import.ts';
import { POST as setRoute } from '../../src/pages/api/admin/producer-prices/index.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { store } from '../../src/server/runtime.ts';
import type { Store } from '../../src/server/store/index.ts';
import { PRODUCER_IMPORT_TARGET, producerPricesTarget } from '../../src/server/store/producerPrices.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { sessionOf, userRecordOf } from './helpers.ts';

const ORIGIN = 'http://127.0.0.1:4321';
let db: Store;
let admin: UserRecord;
let seq = 0;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
type Answer = { status: number; json: any };

beforeAll(async () => {
  db = await store();
  admin = userRecordOf(`pp-admin-${Date.now().toString(36)}`, { role: 'admin' });
  expect(await db.createUser(admin)).toBe(true);
});

async function call(route: APIRoute, path: string, body: string, options: { session?: Session | null; contentType?: string; query?: string; origin?: string } = {}): Promise<Answer> {
  const url = new URL(`${path}${options.query ?? ''}`, ORIGIN);
  const request = new Request(url, { method: 'POST', headers: { 'content-type': options.contentType ?? 'application/json', origin: options.origin ?? ORIGIN }, body });
  const context = { request, url, params: {}, locals: { session: options.session === undefined ? sessionOf(admin) : options.session } } as unknown as APIContext;
  const response = await route(context);
  return { status: response.status, json: await response.json() };
}
const setPrice = (body: unknown, options?: Parameters<typeof call>[3]) => call(setRoute, '/api/admin/producer-prices', JSON.stringify(body), options);
const importCsv = (text: string, options?: Parameters<typeof call>[3]) => call(importRoute, '/api/admin/producer-prices/import', text, { contentType: 'text/csv', ...options });

/** A distinct past day per test (years back, so reruns on one DATA_DIR and the demo data never meet). */
const uniqueDay = (): string => addDays('2001-01-01', (Math.floor(Date.now() / 1000) % 5000) + ++seq * 3);

/** Runs `work`, asserting that no list price and no audit entry was written. */
async function expectNothingWritten(work: () => Promise<Answer>): Promise<Answer> {
  const prices = (await db.listProducerPrices()).length;
  const audit = (await db.listAudit()).total;
  const answer = await work();
  expect((await db.listProducerPrices()).length).toBe(prices);
  expect((await db.listAudit()).total).toBe(audit);
  return answer;
}

describe('producer list prices from the admin', () => {
  it('a list price and the next one: the revision is computed, each write audited under the producer', async () => {
    const first = uniqueDay();
    const second = addDays(first, 1);
    const a = await setPrice({ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: first, value: 101.5 });
    expect(a).toMatchObject({ status: 200, json: { changed: true, id: `opal.ppRaffia.dahej.${first}` } });
    const b = await setPrice({ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: second, value: '99.00' });
    expect(b.json.changed).toBe(true);
    const revision = revisionsOf(await db.listProducerPrices('opal')).find((r) => r.record.effective === second)!;
    expect([revision.previous?.effective, revision.change]).toEqual([first, -2.5]);
    const log = await db.listAudit({ target: producerPricesTarget('opal') });
    expect(log.entries[0]).toMatchObject({ id: b.json.auditId, action: 'producerPrice.set', actor: { uid: admin.uid } });
    // The same again changes nothing and adds no entry.
    expect((await expectNothingWritten(() => setPrice({ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: second, value: 99 }))).json).toMatchObject({ changed: false, auditId: null });
  });

  it.each([
    [{ grade: 'ppRaffia', location: 'dahej', effective: '2020-01-01', value: 100 }, 'producer'],
    [{ producer: 'nobody', grade: 'ppRaffia', location: 'dahej', effective: '2020-01-01', value: 100 }, 'producer'],
    [{ producer: 'opal', grade: 'pvcExtrusion', location: 'dahej', effective: '2020-01-01', value: 100 }, 'grade'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'jamnagar', effective: '2020-01-01', value: 100 }, 'location'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: '2020-02-30', value: 100 }, 'effective'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: '24-11-2026', value: 100 }, 'effective'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: addDays(isoDateOf(new Date()), 1), value: 100 }, 'effective'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: '2020-01-01', value: 'a lot' }, 'value'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: '2020-01-01', value: -3 }, 'value'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: '2020-01-01', value: 100000 }, 'value'],
    [{ producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: '2020-01-01', value: 100.125 }, 'value'],
  ])('refuses %j with a 400 naming %s, writing nothing', async (body, field) => {
    const answer = await expectNothingWritten(() => setPrice(body));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ field });
    expect(answer.json.error.message).toEqual(expect.any(String));
  });

  it('refuses a body that is not JSON, and anyone but an administrator', async () => {
    expect((await expectNothingWritten(() => call(setRoute, '/api/admin/producer-prices', '{not json'))).status).toBe(400);
    const body = { producer: 'opal', grade: 'ppRaffia', location: 'dahej', effective: uniqueDay(), value: 100 };
    expect((await expectNothingWritten(() => setPrice(body, { session: null }))).status).toBe(401);
    expect((await expectNothingWritten(() => setPrice(body, { session: sessionOf(userRecordOf('pp-premium', { subscribed: true, plan: 'Premium' }), 'full') }))).status).toBe(403);
    expect((await expectNothingWritten(() => setPrice(body, { origin: 'https://evil.example' }))).status).toBe(403);
    expect((await expectNothingWritten(() => importCsv(`${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,${uniqueDay()},100\n`, { session: null }))).status).toBe(401);
  });
});

describe('the producer list-price CSV import', () => {
  it('previews (dry run) and imports a file across producers in one audited write', async () => {
    const day = uniqueDay();
    const csv = `\uFEFF${PRODUCER_CSV_HEADER}\n# a comment\nhaldia,ppRaffia,haldia,${day},102.00\nbcpl,hdpeFilm,lepetkata,${day},104.5,,\n\nhaldia,ppRaffia,haldia,${addDays(day, 1)},103\n`;
    const dry = await expectNothingWritten(() => importCsv(csv, { query: '?dryRun=1' }));
    expect(dry).toMatchObject({ status: 200, json: { dryRun: true, rows: 3, changed: 3, auditId: null } });
    const real = await importCsv(csv);
    expect(real).toMatchObject({ status: 200, json: { dryRun: false, rows: 3, changed: 3 } });
    expect((await db.listAudit({ target: PRODUCER_IMPORT_TARGET })).entries[0]).toMatchObject({ id: real.json.auditId, action: 'producerPrice.import' });
    const again = await expectNothingWritten(() => importCsv(csv));
    expect(again.json).toMatchObject({ rows: 3, changed: 0, auditId: null });
  });

  it.each([
    ['an empty file', '', 'header'],
    ['another header', 'series,date,value\nfx.usdinr,2020-01-01,80\n', 'header'],
    ['too few columns', `${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,2020-01-01\n`, 'columns'],
    ['a value with a comma', `${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,2020-01-01,"1,00"\n`, 'columns'],
    ['a unit in the value', `${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,2020-01-01,₹100\n`, 'value'],
    ['an unknown grade', `${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,2020-01-01,100\nopal,pvcInjection,dahej,2020-01-01,100\n`, 'grade'],
    ['a future date', `${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,2099-01-01,100\n`, 'effective'],
    ['a line twice', `${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,2020-01-01,100\nopal,ppRaffia,dahej,2020-01-01,101\n`, 'effective'],
    ['only the header', `${PRODUCER_CSV_HEADER}\n`, 'columns'],
  ])('refuses %s: 400 with the line and field, nothing imported', async (_name, csv, field) => {
    const answer = await expectNothingWritten(() => importCsv(csv));
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: 'invalid_csv', field });
    expect(answer.json.error.message).toMatch(/^Line \d+, .*Nothing was imported\.$/);
  });

  it('a good row beside a bad one imports nothing', async () => {
    const answer = await expectNothingWritten(() => importCsv(`${PRODUCER_CSV_HEADER}\nopal,ppRaffia,dahej,${uniqueDay()},100\nopal,ppRaffia,dahej,2020-01-02,0\n`));
    expect(answer.json.errors).toEqual([expect.objectContaining({ line: 3, field: 'value' })]);
  });

  it('refuses another media type (415) and too many rows (413)', async () => {
    expect((await expectNothingWritten(() => importCsv(`${PRODUCER_CSV_HEADER}\n`, { contentType: 'application/json' }))).status).toBe(415);
    const many = `${PRODUCER_CSV_HEADER}\n${Array.from({ length: 2001 }, (_, i) => `opal,ppRaffia,dahej,${addDays('2000-01-01', i)},100`).join('\n')}\n`;
    expect((await expectNothingWritten(() => importCsv(many))).status).toBe(413);
  });
});
