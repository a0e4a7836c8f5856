/**
 * The price kinds of `npm run store:copy` on Firestore (see ../transfer.ts): series, points,
 * city rows, offers and banners, on the layout of ./priceDocs.ts. Exports page through the
 * collections by a field of their own (`id`, `year`, `city`, `date`, `country`, `month`):
 * `where(field > last).orderBy(field).limit(n)` — no cursors or offsets, single-field
 * indexes only. Imports are the store's idempotent upserts; banners are replaced by id with
 * their `order` kept.
 */
import type { Firestore, Query } from 'firebase-admin/firestore';
import type { TransferRecords } from '../transfer.ts';
import type { Banner } from '../prices.ts';
import { transact } from './database.ts';
import {
  BANNERS_DOC,
  CITY_DATES,
  CITY_SHEETS,
  OFFERS,
  OFFER_MONTHS,
  SERIES,
  YEARS,
  bannersDocOf,
  bannersOf,
  checkBannerIds,
  cityRowsOf,
  storedOfferDay,
  pointsOfYear,
  seriesDefOf,
  sheetRowsOf,
} from './priceDocs.ts';
import { createFirestorePriceStore } from './prices.ts';

export type PriceTransferKind = 'series' | 'points' | 'cityPrices' | 'offers' | 'banners';
export const PRICE_TRANSFER_KINDS: readonly PriceTransferKind[] = ['series', 'points', 'cityPrices', 'offers', 'banners'];

export interface PriceTransfer {
  exportRecords<K extends PriceTransferKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]>;
  importRecords<K extends PriceTransferKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number>;
}

/** Documents per read when paging a collection. */
const PAGE = 200;

/** Every document of a collection in ascending `field` order, a page at a time. */
async function* pages(collection: Query, field: string, size: number = PAGE) {
  let last: unknown = undefined;
  for (;;) {
    const query = last === undefined ? collection : collection.where(field, '>', last);
    const snapshot = await query.orderBy(field, 'asc').limit(size).get();
    if (snapshot.empty) return;
    yield snapshot.docs;
    if (snapshot.size < size) return;
    last = snapshot.docs.at(-1)!.get(field);
  }
}

function refuse(kind: string): never {
  throw new Error(`the Firestore price transfer does not handle ${JSON.stringify(kind)}`);
}

export function createFirestorePriceTransfer(db: Firestore): PriceTransfer {
  const store = createFirestorePriceStore(db);

  async function* exportKind(kind: PriceTransferKind): AsyncGenerator<readonly unknown[]> {
    switch (kind) {
      case 'series':
        for await (const docs of pages(db.collection(SERIES), 'id')) yield docs.map((doc) => seriesDefOf(doc.data()));
        return;
      case 'points':
        for await (const series of pages(db.collection(SERIES), 'id')) {
          for (const s of series) {
            for await (const years of pages(s.ref.collection(YEARS), 'year', 10)) {
              yield years.flatMap((doc) => pointsOfYear(doc).map((p) => ({ seriesId: s.id, ...p })));
            }
          }
        }
        return;
      case 'cityPrices':
        for await (const cities of pages(db.collection(CITY_SHEETS), 'city')) {
          for (const c of cities) {
            for await (const dates of pages(c.ref.collection(CITY_DATES), 'date', 50)) {
              yield dates.flatMap((doc) => cityRowsOf(c.id, String(doc.get('date')), sheetRowsOf(doc.get('rows'))));
            }
          }
        }
        return;
      case 'offers':
        for await (const countries of pages(db.collection(OFFERS), 'country')) {
          for (const c of countries) {
            for await (const months of pages(c.ref.collection(OFFER_MONTHS), 'month', 24)) {
              yield months.flatMap((doc) =>
                ((doc.get('days') ?? []) as { date: string; entries: unknown }[]).map((day) => ({ country: c.id, date: String(day.date), ...storedOfferDay(day.entries) })),
              );
            }
          }
        }
        return;
      case 'banners':
        yield bannersOf(await db.doc(BANNERS_DOC).get());
        return;
      default:
        refuse(kind);
    }
  }

  return {
    exportRecords<K extends PriceTransferKind>(kind: K): AsyncIterable<readonly TransferRecords[K][]> {
      if (!PRICE_TRANSFER_KINDS.includes(kind)) refuse(kind);
      // exportKind yields exactly the record shape of `kind` (checked per case above).
      return exportKind(kind) as AsyncIterable<readonly TransferRecords[K][]>;
    },

    async importRecords<K extends PriceTransferKind>(kind: K, records: readonly TransferRecords[K][]): Promise<number> {
      // Each case narrows `records` by `kind`; TypeScript cannot follow a generic through a switch.
      switch (kind as PriceTransferKind) {
        case 'series':
          await store.upsertSeries(records as readonly TransferRecords['series'][]);
          return records.length;
        case 'points':
          return store.upsertPoints(records as readonly TransferRecords['points'][]);
        case 'cityPrices':
          return store.upsertCityPrices(records as readonly TransferRecords['cityPrices'][]);
        case 'offers':
          return store.upsertOffers(records as readonly TransferRecords['offers'][]);
        case 'banners': {
          const incoming = records as readonly Banner[];
          checkBannerIds(incoming);
          if (incoming.length === 0) return 0;
          await transact(db, async (tx) => {
            const ref = db.doc(BANNERS_DOC);
            const byId = new Map(bannersOf(await tx.get(ref)).map((b) => [b.id, b]));
            for (const b of incoming) byId.set(b.id, { ...b });
            tx.set(ref, bannersDocOf([...byId.values()]));
          });
          return incoming.length;
        }
        default:
          return refuse(kind);
      }
    },
  };
}
