/** SQLite adapter of the audited banner writes (see ../bannerAdmin.ts). Orders are renumbered 1…n. */
import type { Client, Transaction } from '@libsql/client';
import { bannerAuditEntry, type BannerAdminStore, type BannerEditResult } from '../bannerAdmin.ts';
import type { Banner } from '../prices.ts';
import { insertAuditEntry } from './audit.ts';
import { toBanner } from './priceRows.ts';
import { inTransaction, notifyingAfter } from './database.ts';

const list = async (tx: Transaction): Promise<Banner[]> => (await tx.execute('SELECT * FROM banners ORDER BY sort_order, id')).rows.map(toBanner);

async function renumber(tx: Transaction, ids: readonly string[]): Promise<Banner[]> {
  for (const [index, id] of ids.entries()) await tx.execute({ sql: 'UPDATE banners SET sort_order = ? WHERE id = ?', args: [index + 1, id] });
  return list(tx);
}

export function createSqliteBannerAdminStore(client: Client, written: () => void): BannerAdminStore {
  const committed = notifyingAfter(written);
  return {
    adminAddBanner({ banner, actor, now }) {
      return committed(inTransaction(client, async (tx): Promise<BannerEditResult> => {
        const before = await list(tx);
        const order = before.length + 1;
        await tx.execute({
          sql: 'INSERT INTO banners (id, title, subtitle, href, image, alt, sort_order) VALUES (?, ?, ?, ?, ?, ?, ?)',
          args: [banner.id, banner.title, banner.subtitle, banner.href, banner.image, banner.alt, order],
        });
        const banners = await renumber(tx, [...before.map((b) => b.id), banner.id]);
        await insertAuditEntry(tx, bannerAuditEntry.add(banner, banners.length, { actor, now }));
        return { kind: 'written', banners };
      }));
    },

    adminMoveBanner({ id, direction, actor, now }) {
      return committed(inTransaction(client, async (tx): Promise<BannerEditResult> => {
        const before = await list(tx);
        const index = before.findIndex((b) => b.id === id);
        if (index === -1) return { kind: 'not_found' };
        const other = direction === 'up' ? index - 1 : index + 1;
        if (other < 0 || other >= before.length) return { kind: 'unchanged' };
        const ids = before.map((b) => b.id);
        [ids[index], ids[other]] = [ids[other]!, ids[index]!];
        const banners = await renumber(tx, ids);
        await insertAuditEntry(tx, bannerAuditEntry.move(id, index, other, before, banners, { actor, now }));
        return { kind: 'written', banners };
      }));
    },

    adminRemoveBanner({ id, actor, now }) {
      return committed(inTransaction(client, async (tx) => {
        const before = await list(tx);
        const removed = before.find((b) => b.id === id);
        if (!removed) return { kind: 'not_found' as const };
        await tx.execute({ sql: 'DELETE FROM banners WHERE id = ?', args: [id] });
        const banners = await renumber(tx, before.filter((b) => b.id !== id).map((b) => b.id));
        await insertAuditEntry(tx, bannerAuditEntry.remove(removed, { actor, now }));
        return { kind: 'written' as const, banners, removed };
      }));
    },
  };
}
