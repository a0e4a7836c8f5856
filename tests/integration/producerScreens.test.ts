/**
 * The producer-price screens rendered through Astro's container over the real store of the test
 * DATA_DIR (the demo's lists, plus lists written here as the desk writes them): companyPrice shows
 * each line's list in force with its last change, rateRevision every revision with its ± and the
 * filters, both with the basis line and the methodology link; the ticker answer carries the newest
 * revision.
 */
import { getContainerRenderer } from '@astrojs/react/container-renderer';
import type { APIContext } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { loadRenderers } from 'astro:container';
import { beforeAll, describe, expect, it } from 'vitest';
import { methodologyPath } from '../../src/lib/basis.ts';
import { addDays, isoDateOf } from '../../src/lib/dates.ts';
import { findListLine, listDateText, producerPriceRecord } from '../../src/lib/producerPrices.ts';
import IndianBazaarPage from '../../src/pages/indian-bazaar/[slug].astro';
import { GET as tickerRoute } from '../../src/pages/api/home/ticker.ts';
import type { Session } from '../../src/server/auth/session.ts';
import { store } from '../../src/server/runtime.ts';

const SITE = 'http://127.0.0.1:4321';
const premium: Session = { uid: 'pp-screens', email: 'pp@polyindex.test', record: null, entitlement: 'full', inTrial: null };
const today = isoDateOf(new Date());
const line = findListLine('bcpl.lldpeFilm.kolkata-depot')!;
let container: AstroContainer;

beforeAll(async () => {
  const db = await store();
  container = await AstroContainer.create({ renderers: await loadRenderers([getContainerRenderer()]) });
  // A list a month back, then today's revision of −2.50 (whatever the demo had in between is corrected away: the desk's own lists win).
  const entered = { at: new Date(), by: 'desk' };
  const demo = (await db.listProducerPrices('bcpl')).filter((r) => r.location === line.location.key && r.grade === line.grade && r.effective > addDays(today, -30));
  await db.importRecords('producerPrices', demo.map((r) => ({ ...r, value: 121 })));
  await db.adminWriteProducerPrices({ records: [producerPriceRecord(line, addDays(today, -30), 121, entered), producerPriceRecord(line, today, 118.5, entered)], actor: { uid: 'desk', email: null }, now: new Date(), via: 'import', dryRun: false });
});

async function render(path: string): Promise<string> {
  const slug = new URL(path, SITE).pathname.split('/').at(-1)!;
  const response = await container.renderToResponse(IndianBazaarPage, { request: new Request(new URL(path, SITE)), locals: { session: premium }, partial: false, params: { slug } });
  expect(response.status, path).toBe(200);
  return response.text();
}

const rowOf = (html: string, attribute: string) => new RegExp(`<tr[^>]*${attribute}[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('/indian-bazaar/companyPrice', () => {
  it('shows each producer’s lists in force with the last change and the date, the basis and the methodology link', async () => {
    const html = await render('/indian-bazaar/companyPrice');
    expect(html).toContain(`href="${methodologyPath('producer-prices')}"`);
    expect(html).toContain('data-testid="basis"');
    expect(html).toContain('producer list price');
    const row = text(rowOf(html, `data-line="${line.id}"`));
    expect(row).toContain('LLDPE Film ex-depot Kolkata');
    expect(row).toContain('118.50');
    expect(row).toContain('−2.50');
    expect(row).toContain(listDateText(today, today));
    for (const producer of ['reliance', 'iocl', 'gail', 'haldia', 'opal', 'hmel', 'bcpl']) expect(html).toContain(`data-producer="${producer}"`);
  });

  it('filters by producer and product', async () => {
    const html = await render('/indian-bazaar/companyPrice?producer=bcpl&product=LLDPE');
    expect(html.match(/data-producer="/g)).toHaveLength(1);
    expect(html.match(/data-line="/g)?.length).toBe(2);
    expect(await render('/indian-bazaar/companyPrice?producer=bcpl&product=PP')).toContain('No list prices for this choice');
  });
});

describe('/indian-bazaar/rateRevision', () => {
  it('lists the revision with its ± against the previous list, and filters by producer, product and month', async () => {
    const html = await render(`/indian-bazaar/rateRevision?producer=bcpl&product=LLDPE&month=${today.slice(0, 7)}`);
    expect(html).toContain(`href="${methodologyPath('producer-prices')}"`);
    const row = text(rowOf(html, `data-revision="${line.id}.${today}"`));
    expect(row).toContain('−2.50');
    expect(row).toContain('118.50');
    expect(row).toContain('Brahmaputra Cracker (BCPL)');
    expect(html).not.toContain('data-revision="reliance.');
    // A first list is not a revision.
    expect(html).not.toContain(`data-revision="${line.id}.${addDays(today, -30)}"`);
    expect(await render('/indian-bazaar/rateRevision?producer=bcpl&product=PP')).toContain('No revisions for this choice');
  });
});

describe('the home ticker', () => {
  it('carries the newest revision with its change (figures for a plan that opens the data, the direction for others)', async () => {
    const answer = async (session: Session | null) => {
      const url = new URL('/api/home/ticker', SITE);
      const response = await tickerRoute({ request: new Request(url), url, params: {}, locals: { session } } as unknown as APIContext);
      return (await response.json()) as { figures: boolean; data: { id: string; change?: number; direction?: string; label: string }[] };
    };
    const figures = await answer(premium);
    expect(figures.data.find((i) => i.id === `revision.${line.id}.${today}`)).toMatchObject({ label: 'Brahmaputra Cracker (BCPL) LLDPE Film list', change: -2.5 });
    const directions = await answer(null);
    expect(directions.data.find((i) => i.id === `revision.${line.id}.${today}`)).toMatchObject({ direction: 'down' });
  });
});
