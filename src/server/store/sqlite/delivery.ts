/** SQLite adapter of the delivery store: settings, alerts, WhatsApp contacts and the sent-log. */
import type { Client, Row, Transaction } from '@libsql/client';
import {
  CLAIM_LEASE_MS,
  claimable,
  deliveryKey,
  optedContact,
  sameAlertState,
  strangerContact,
  verifiedContact,
  verifiedSettings,
  type AlertRecord,
  type Channel,
  type DeliveryKind,
  type DeliveryLogRecord,
  type DeliverySettings,
  type DeliveryStore,
  type PendingVerification,
  type WhatsAppContact,
} from '../delivery.ts';
import { inTransaction, type Migration } from './database.ts';

export const deliveryMigrations: readonly Migration[] = [
  {
    id: 'delivery-001',
    statements: [
      `CREATE TABLE delivery_settings (
         uid TEXT PRIMARY KEY,
         active INTEGER NOT NULL,
         record TEXT NOT NULL CHECK (json_valid(record))
       )`,
      'CREATE INDEX delivery_settings_active ON delivery_settings (active)',
      `CREATE TABLE alerts (
         id TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         instrument TEXT NOT NULL,
         record TEXT NOT NULL CHECK (json_valid(record))
       )`,
      'CREATE INDEX alerts_uid ON alerts (uid)',
      'CREATE INDEX alerts_instrument ON alerts (instrument)',
      `CREATE TABLE whatsapp_contacts (
         number TEXT PRIMARY KEY,
         uid TEXT,
         record TEXT NOT NULL CHECK (json_valid(record))
       )`,
      'CREATE INDEX whatsapp_contacts_uid ON whatsapp_contacts (uid)',
      `CREATE TABLE delivery_log (
         key TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         kind TEXT NOT NULL,
         ref TEXT NOT NULL,
         channel TEXT NOT NULL,
         status TEXT NOT NULL CHECK (status IN ('claimed', 'sent')),
         claimed_at TEXT NOT NULL,
         sent_at TEXT
       )`,
      'CREATE INDEX delivery_log_uid ON delivery_log (uid)',
    ],
  },
];

export const settingsOf = (row: Row): DeliverySettings => JSON.parse(String(row['record'])) as DeliverySettings;
export const alertOf = (row: Row): AlertRecord => JSON.parse(String(row['record'])) as AlertRecord;
export const contactOf = (row: Row): WhatsAppContact => JSON.parse(String(row['record'])) as WhatsAppContact;
export const logOf = (row: Row): DeliveryLogRecord => ({
  key: String(row['key']),
  uid: String(row['uid']),
  kind: String(row['kind']) as DeliveryKind,
  ref: String(row['ref']),
  channel: String(row['channel']) as Channel | 'none',
  status: String(row['status']) as DeliveryLogRecord['status'],
  claimedAt: String(row['claimed_at']),
  sentAt: row['sent_at'] === null ? null : String(row['sent_at']),
});

/** Column values of each record (the transfer writes the same rows). */
export const settingsArgs = (s: DeliverySettings) => [s.uid, s.email || s.whatsapp ? 1 : 0, JSON.stringify(s)];
export const alertArgs = (a: AlertRecord) => [a.id, a.uid, a.instrument, JSON.stringify(a)];
export const contactArgs = (c: WhatsAppContact) => [c.number, c.uid, JSON.stringify(c)];
export const logArgs = (l: DeliveryLogRecord) => [l.key, l.uid, l.kind, l.ref, l.channel, l.status, l.claimedAt, l.sentAt];

const SAVE_SETTINGS = `INSERT INTO delivery_settings (uid, active, record) VALUES (?, ?, ?)
  ON CONFLICT (uid) DO UPDATE SET active = excluded.active, record = excluded.record`;
const SAVE_CONTACT = `INSERT INTO whatsapp_contacts (number, uid, record) VALUES (?, ?, ?)
  ON CONFLICT (number) DO UPDATE SET uid = excluded.uid, record = excluded.record`;

async function contactIn(tx: Transaction | Client, number: string): Promise<WhatsAppContact | null> {
  const row = (await tx.execute({ sql: 'SELECT record FROM whatsapp_contacts WHERE number = ?', args: [number] })).rows[0];
  return row ? contactOf(row) : null;
}

async function logIn(tx: Transaction, key: string): Promise<DeliveryLogRecord | null> {
  const row = (await tx.execute({ sql: 'SELECT * FROM delivery_log WHERE key = ?', args: [key] })).rows[0];
  return row ? logOf(row) : null;
}

export function createSqliteDeliveryStore(client: Client): DeliveryStore {
  return {
    async getDeliverySettings(uid) {
      const row = (await client.execute({ sql: 'SELECT record FROM delivery_settings WHERE uid = ?', args: [uid] })).rows[0];
      return row ? settingsOf(row) : null;
    },

    async saveDeliverySettings(settings) {
      await inTransaction(client, (tx) => tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs(settings) }));
    },

    async listActiveDeliverySettings() {
      return (await client.execute('SELECT record FROM delivery_settings WHERE active = 1 ORDER BY uid')).rows.map(settingsOf);
    },

    async verifyWhatsAppNumber({ uid, number, now }) {
      return inTransaction(client, async (tx) => {
        const row = (await tx.execute({ sql: 'SELECT record FROM delivery_settings WHERE uid = ?', args: [uid] })).rows[0];
        const settings = row ? settingsOf(row) : null;
        const pending: PendingVerification | null = settings?.pending ?? null;
        if (!settings || pending?.number !== number) return false;
        const previous = settings.whatsappNumber;
        if (previous && previous !== number) {
          const old = await contactIn(tx, previous);
          if (old?.uid === uid) await tx.execute({ sql: SAVE_CONTACT, args: contactArgs({ ...old, uid: null, updatedAt: now.toISOString() }) });
        }
        // Another user who verified this number before loses it (the number is one person's).
        const others = await tx.execute({ sql: 'SELECT uid, record FROM delivery_settings WHERE uid <> ? AND json_extract(record, \'$.whatsappNumber\') = ?', args: [uid, number] });
        for (const other of others.rows) {
          const otherSettings = settingsOf(other);
          await tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs({ ...otherSettings, whatsappNumber: null, whatsappVerifiedAt: null, whatsapp: false, updatedAt: now.toISOString() }) });
        }
        await tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs(verifiedSettings(settings, number, now)) });
        await tx.execute({ sql: SAVE_CONTACT, args: contactArgs(verifiedContact(await contactIn(tx, number), number, uid, now)) });
        return true;
      });
    },

    async createAlert(alert) {
      const result = await inTransaction(client, (tx) =>
        tx.execute({ sql: 'INSERT INTO alerts (id, uid, instrument, record) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING', args: alertArgs(alert) }),
      );
      return result.rowsAffected === 1;
    },

    async listAlertsByUid(uid) {
      return (await client.execute({ sql: 'SELECT record FROM alerts WHERE uid = ? ORDER BY rowid', args: [uid] })).rows.map(alertOf);
    },

    async listAlertsByInstrument(instrument) {
      return (await client.execute({ sql: 'SELECT record FROM alerts WHERE instrument = ? ORDER BY rowid', args: [instrument] })).rows.map(alertOf);
    },

    async deleteAlert(uid, id) {
      const result = await inTransaction(client, (tx) => tx.execute({ sql: 'DELETE FROM alerts WHERE id = ? AND uid = ?', args: [id, uid] }));
      return result.rowsAffected === 1;
    },

    async stepAlertState(id, from, to, now) {
      return inTransaction(client, async (tx) => {
        const row = (await tx.execute({ sql: 'SELECT record FROM alerts WHERE id = ?', args: [id] })).rows[0];
        if (!row) return false;
        const alert = alertOf(row);
        if (!sameAlertState(alert, from)) return false;
        const next: AlertRecord = { ...alert, reached: to.reached, firedFor: to.firedFor, crossings: to.crossings, updatedAt: now.toISOString() };
        await tx.execute({ sql: 'UPDATE alerts SET record = ? WHERE id = ?', args: [JSON.stringify(next), id] });
        return true;
      });
    },

    async getWhatsAppContact(number) {
      return contactIn(client, number);
    },

    async recordWhatsAppInbound(number, at) {
      return inTransaction(client, async (tx) => {
        const existing = (await contactIn(tx, number)) ?? strangerContact(number, at);
        const next: WhatsAppContact = { ...existing, lastInboundAt: at.toISOString(), updatedAt: at.toISOString() };
        await tx.execute({ sql: SAVE_CONTACT, args: contactArgs(next) });
        return next;
      });
    },

    async setWhatsAppOptIn(number, optedIn, now) {
      return inTransaction(client, async (tx) => {
        const next = optedContact((await contactIn(tx, number)) ?? strangerContact(number, now), optedIn, now);
        await tx.execute({ sql: SAVE_CONTACT, args: contactArgs(next) });
        return next;
      });
    },

    async claimDelivery(delivery, now, leaseMs = CLAIM_LEASE_MS) {
      const key = deliveryKey(delivery);
      return inTransaction(client, async (tx) => {
        if (!claimable(await logIn(tx, key), now, leaseMs)) return false;
        const record: DeliveryLogRecord = { key, ...delivery, status: 'claimed', claimedAt: now.toISOString(), sentAt: null };
        await tx.execute({
          sql: `INSERT INTO delivery_log (key, uid, kind, ref, channel, status, claimed_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET status = excluded.status, claimed_at = excluded.claimed_at, sent_at = NULL`,
          args: logArgs(record),
        });
        return true;
      });
    },

    async completeDelivery(delivery, now) {
      await inTransaction(client, (tx) =>
        tx.execute({ sql: "UPDATE delivery_log SET status = 'sent', sent_at = ? WHERE key = ?", args: [now.toISOString(), deliveryKey(delivery)] }),
      );
    },

    async releaseDelivery(delivery) {
      await inTransaction(client, (tx) => tx.execute({ sql: "DELETE FROM delivery_log WHERE key = ? AND status = 'claimed'", args: [deliveryKey(delivery)] }));
    },

    async listDeliveries(uid) {
      return (await client.execute({ sql: 'SELECT * FROM delivery_log WHERE uid = ? ORDER BY claimed_at DESC, rowid DESC', args: [uid] })).rows.map(logOf);
    },
  };
}
