/**
 * Firestore adapter of the audited banner writes (see ../bannerAdmin.ts): the one document
 * `site/banners` `{ list: Banner[] }` in display order. Add, move and remove are transactions
 * on it (audit counter read first, the entry the first write), renumbering orders 1…n as the
 * SQLite adapter does.
 */
import type { Firestore } from 'firebase-admin/firestore';
import { bannerAuditEntry, type BannerAdminStore, type BannerEditResult } from '../bannerAdmin.ts';
import type { Banner } from '../prices.ts';
import { auditWriterIn } from './audit.ts';
import { transact } from './database.ts';
import { BANNERS_DOC, bannersDocOf, bannersOf } from './priceDocs.ts';

const renumber = (banners: readonly Banner[]): Banner[] => banners.map((b, index) => ({ ...b, order: index + 1 }));

export function createFirestoreBannerAdminStore(db: Firestore, written: () => void): BannerAdminStore {
  const committed = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } finally {
      written();
    }
  };
  const ref = db.doc(BANNERS_DOC);

  return {
    adminAddBanner({ banner, actor, now }) {
      return committed(transact(db, async (tx): Promise<BannerEditResult> => {
        const write = await auditWriterIn(db, tx);
        const before = bannersOf(await tx.get(ref));
        // SQLite's primary key refuses a second banner with the same id.
        if (before.some((b) => b.id === banner.id)) throw new Error(`UNIQUE constraint failed: banners.id ${JSON.stringify(banner.id)}`);
        const banners = renumber([...before, { ...banner, order: before.length + 1 }]);
        write(bannerAuditEntry.add(banner, banners.length, { actor, now }));
        tx.set(ref, bannersDocOf(banners));
        return { kind: 'written', banners };
      }));
    },

    adminMoveBanner({ id, direction, actor, now }) {
      return committed(transact(db, async (tx): Promise<BannerEditResult> => {
        const write = await auditWriterIn(db, tx);
        const before = bannersOf(await tx.get(ref));
        const index = before.findIndex((b) => b.id === id);
        if (index === -1) return { kind: 'not_found' };
        const other = direction === 'up' ? index - 1 : index + 1;
        if (other < 0 || other >= before.length) return { kind: 'unchanged' };
        const moved = [...before];
        [moved[index], moved[other]] = [moved[other]!, moved[index]!];
        const banners = renumber(moved);
        write(bannerAuditEntry.move(id, index, other, before, banners, { actor, now }));
        tx.set(ref, bannersDocOf(banners));
        return { kind: 'written', banners };
      }));
    },

    adminRemoveBanner({ id, actor, now }) {
      return committed(transact(db, async (tx) => {
        const write = await auditWriterIn(db, tx);
        const before = bannersOf(await tx.get(ref));
        const removed = before.find((b) => b.id === id);
        if (!removed) return { kind: 'not_found' as const };
        const banners = renumber(before.filter((b) => b.id !== id));
        write(bannerAuditEntry.remove(removed, { actor, now }));
        tx.set(ref, bannersDocOf(banners));
        return { kind: 'written' as const, banners, removed };
      }));
    },
  };
}
