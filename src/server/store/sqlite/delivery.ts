/** SQLite adapter of the delivery store: settings, alerts, WhatsApp contacts and the sent-log. */
import { randomUUID } from 'node:crypto';
import type { Client, Row, Transaction } from '@libsql/client';
import {
  CLAIM_LEASE_MS,
  claimable,
  claimedRecord,
  claimOf,
  codeStartOf,
  codeTryOf,
  contactWithCodeSent,
  deliveryKey,
  endedRecord,
  holds,
  optedContact,
  patchedSettings,
  pendingRecord,
  sameAlertState,
  strangerContact,
  verifiedContact,
  verifiedSettings,
  type AlertRecord,
  type Channel,
  type DeliveryClaim,
  type DeliveryKind,
  type DeliveryLogRecord,
  type DeliverySettings,
  type DeliveryStatus,
  type DeliveryStore,
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
  {
    // Pending and dropped records (alert retries), the claim's owner token, the creation time
    // (retries and pruning count from it) and a payload. SQLite cannot change a CHECK: the table is rebuilt.
    id: 'delivery-002',
    statements: [
      `CREATE TABLE delivery_log_next (
         key TEXT PRIMARY KEY,
         uid TEXT NOT NULL,
         kind TEXT NOT NULL,
         ref TEXT NOT NULL,
         channel TEXT NOT NULL,
         status TEXT NOT NULL CHECK (status IN ('pending', 'claimed', 'sent', 'dropped')),
         created_at TEXT NOT NULL,
         claimed_at TEXT NOT NULL,
         claim_id TEXT,
         sent_at TEXT,
         payload TEXT
       )`,
      `INSERT INTO delivery_log_next (key, uid, kind, ref, channel, status, created_at, claimed_at, claim_id, sent_at, payload)
         SELECT key, uid, kind, ref, channel, status, claimed_at, claimed_at, NULL, sent_at, NULL FROM delivery_log`,
      'DROP TABLE delivery_log',
      'ALTER TABLE delivery_log_next RENAME TO delivery_log',
      'CREATE INDEX delivery_log_uid ON delivery_log (uid)',
      'CREATE INDEX delivery_log_unsent ON delivery_log (status, kind)',
      'CREATE INDEX delivery_log_created ON delivery_log (created_at)',
    ],
  },
];

export const settingsOf = (row: Row): DeliverySettings => JSON.parse(String(row['record'])) as DeliverySettings;
export const alertOf = (row: Row): AlertRecord => JSON.parse(String(row['record'])) as AlertRecord;
// Contacts written before codeSentAt existed have none.
export const contactOf = (row: Row): WhatsAppContact => ({ codeSentAt: [], ...(JSON.parse(String(row['record'])) as Omit<WhatsAppContact, 'codeSentAt'>) });
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
export const logOf = (row: Row): DeliveryLogRecord => ({
  key: String(row['key']),
  uid: String(row['uid']),
  kind: String(row['kind']) as DeliveryKind,
  ref: String(row['ref']),
  channel: String(row['channel']) as Channel | 'none',
  status: String(row['status']) as DeliveryStatus,
  createdAt: String(row['created_at']),
  claimedAt: String(row['claimed_at']),
  claimId: textOrNull(row['claim_id']),
  sentAt: textOrNull(row['sent_at']),
  payload: textOrNull(row['payload']),
});

/** Column values of each record (the transfer writes the same rows). */
export const settingsArgs = (s: DeliverySettings) => [s.uid, s.email || s.whatsapp ? 1 : 0, JSON.stringify(s)];
export const alertArgs = (a: AlertRecord) => [a.id, a.uid, a.instrument, JSON.stringify(a)];
export const contactArgs = (c: WhatsAppContact) => [c.number, c.uid, JSON.stringify(c)];
export const logArgs = (l: DeliveryLogRecord) => [l.key, l.uid, l.kind, l.ref, l.channel, l.status, l.createdAt, l.claimedAt, l.claimId, l.sentAt, l.payload];
export const LOG_COLUMNS = 'key, uid, kind, ref, channel, status, created_at, claimed_at, claim_id, sent_at, payload';
export const LOG_UPSERT = `ON CONFLICT (key) DO UPDATE SET uid = excluded.uid, kind = excluded.kind, ref = excluded.ref, channel = excluded.channel,
  status = excluded.status, created_at = excluded.created_at, claimed_at = excluded.claimed_at, claim_id = excluded.claim_id,
  sent_at = excluded.sent_at, payload = excluded.payload`;

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

const SAVE_LOG = `INSERT INTO delivery_log (${LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${LOG_UPSERT}`;
const saveLog = (tx: Transaction, record: DeliveryLogRecord) => tx.execute({ sql: SAVE_LOG, args: logArgs(record) });

async function settingsIn(tx: Transaction | Client, uid: string): Promise<DeliverySettings | null> {
  const row = (await tx.execute({ sql: 'SELECT record FROM delivery_settings WHERE uid = ?', args: [uid] })).rows[0];
  return row ? settingsOf(row) : null;
}

/** The writes of a verification (tryWhatsAppCode's right code), in the caller's transaction. */
async function verifyIn(tx: Transaction, settings: DeliverySettings, number: string, now: Date): Promise<void> {
  const uid = settings.uid;
  const previous = settings.whatsappNumber;
  if (previous && previous !== number) {
    const old = await contactIn(tx, previous);
    if (old?.uid === uid) await tx.execute({ sql: SAVE_CONTACT, args: contactArgs({ ...old, uid: null, updatedAt: now.toISOString() }) });
  }
  // Another user who verified this number before loses it (the number is one person's).
  const others = await tx.execute({ sql: "SELECT uid, record FROM delivery_settings WHERE uid <> ? AND json_extract(record, '$.whatsappNumber') = ?", args: [uid, number] });
  for (const other of others.rows) {
    const otherSettings = settingsOf(other);
    await tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs({ ...otherSettings, whatsappNumber: null, whatsappVerifiedAt: null, whatsapp: false, updatedAt: now.toISOString() }) });
  }
  await tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs(verifiedSettings(settings, number, now)) });
  await tx.execute({ sql: SAVE_CONTACT, args: contactArgs(verifiedContact(await contactIn(tx, number), number, uid, now)) });
}

/** Ends a claim (sent, pending again, dropped) if it still holds its record. */
function endClaim(client: Client, claim: DeliveryClaim, end: 'sent' | 'pending' | 'dropped', now: Date): Promise<boolean> {
  return inTransaction(client, async (tx) => {
    const record = await logIn(tx, deliveryKey(claim.delivery));
    if (!record || !holds(record, claim)) return false;
    await saveLog(tx, endedRecord(record, end, now));
    return true;
  });
}

export function createSqliteDeliveryStore(client: Client): DeliveryStore {
  return {
    async getDeliverySettings(uid) {
      return settingsIn(client, uid);
    },

    async saveDeliverySettings(settings) {
      await inTransaction(client, (tx) => tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs(settings) }));
    },

    async patchDeliverySettings(uid, patch, now, base) {
      return inTransaction(client, async (tx) => {
        const current = (await settingsIn(tx, uid)) ?? base;
        if (!current) return null;
        const next = patchedSettings({ ...current, uid }, patch, now);
        await tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs(next) });
        return next;
      });
    },

    async listActiveDeliverySettings() {
      return (await client.execute('SELECT record FROM delivery_settings WHERE active = 1 ORDER BY uid')).rows.map(settingsOf);
    },

    async startWhatsAppCode({ uid, number, codeHash, expiresAt, now, limits, base }) {
      return inTransaction(client, async (tx) => {
        const contact = await contactIn(tx, number);
        const decision = codeStartOf(contact, now, limits);
        if (!decision.ok) return decision;
        await tx.execute({ sql: SAVE_CONTACT, args: contactArgs(contactWithCodeSent(contact, number, now, limits)) });
        const settings = (await settingsIn(tx, uid)) ?? base;
        await tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs({ ...settings, uid, pending: { number, codeHash, expiresAt, attempts: 0 }, updatedAt: now.toISOString() }) });
        return decision;
      });
    },

    async tryWhatsAppCode({ uid, code, now, maxAttempts }) {
      return inTransaction(client, async (tx) => {
        const { result, counted } = codeTryOf(await settingsIn(tx, uid), uid, code, now, maxAttempts);
        if (!counted) return result;
        if (result.outcome === 'verified') await verifyIn(tx, counted, result.number, now);
        else await tx.execute({ sql: SAVE_SETTINGS, args: settingsArgs(counted) });
        return result;
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

    async stepAlertState(id, from, to, now, deliveries = []) {
      return inTransaction(client, async (tx) => {
        const row = (await tx.execute({ sql: 'SELECT record FROM alerts WHERE id = ?', args: [id] })).rows[0];
        if (!row) return false;
        const alert = alertOf(row);
        if (!sameAlertState(alert, from)) return false;
        const next: AlertRecord = { ...alert, reached: to.reached, firedFor: to.firedFor, crossings: to.crossings, updatedAt: now.toISOString() };
        await tx.execute({ sql: 'UPDATE alerts SET record = ? WHERE id = ?', args: [JSON.stringify(next), id] });
        for (const delivery of deliveries) {
          const record = pendingRecord(delivery, now);
          await tx.execute({ sql: `INSERT INTO delivery_log (${LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`, args: logArgs(record) });
        }
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
      return inTransaction(client, async (tx) => {
        const existing = await logIn(tx, deliveryKey(delivery));
        if (!claimable(existing, now, leaseMs)) return null;
        const record = claimedRecord(delivery, existing, randomUUID(), now);
        await saveLog(tx, record);
        return claimOf(record);
      });
    },

    completeDelivery(claim, now) {
      return endClaim(client, claim, 'sent', now);
    },

    releaseDelivery(claim) {
      return endClaim(client, claim, 'pending', new Date());
    },

    dropDelivery(claim, now) {
      return endClaim(client, claim, 'dropped', now);
    },

    async listUnsentDeliveries(kind) {
      const rows = await client.execute({ sql: "SELECT * FROM delivery_log WHERE status IN ('pending', 'claimed') AND kind = ? ORDER BY created_at, key", args: [kind] });
      return rows.rows.map(logOf);
    },

    async pruneDeliveries(before) {
      const result = await inTransaction(client, (tx) => tx.execute({ sql: 'DELETE FROM delivery_log WHERE created_at < ?', args: [before.toISOString()] }));
      return result.rowsAffected;
    },

    async listDeliveries(uid) {
      return (await client.execute({ sql: 'SELECT * FROM delivery_log WHERE uid = ? ORDER BY claimed_at DESC, rowid DESC', args: [uid] })).rows.map(logOf);
    },
  };
}
