/**
 * Firestore adapter of the delivery store. Documents are always written whole, with the same
 * top-level fields (docs/data.md, "What the offline stand-in cannot do"):
 * - `deliverySettings/{uid}`: the DeliverySettings fields, plus `active` (a channel is on);
 * - `alerts/{id}`: the AlertRecord fields (queried by `uid` and by `instrument`);
 * - `whatsappContacts/{number}`: the WhatsAppContact fields;
 * - `deliveryLog/{key}` (the key URI-encoded: message ids may hold `/`): the DeliveryLogRecord
 *   fields, plus `expireAt` (a Timestamp, DELIVERY_LOG_RETENTION_MS after creation) for a TTL
 *   policy. A new claim is a create() first, so two instances racing for one message cannot both
 *   win; a pending record or a lapsed claim is taken over in a transaction.
 */
import { randomUUID } from 'node:crypto';
import type { DocumentData, Firestore, Transaction } from 'firebase-admin/firestore';
import {
  CLAIM_LEASE_MS,
  claimable,
  claimedRecord,
  claimOf,
  codeStartOf,
  codeTryOf,
  contactWithCodeSent,
  DELIVERY_LOG_RETENTION_MS,
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
  type DeliveryClaim,
  type DeliveryLogRecord,
  type DeliverySettings,
  type DeliveryStore,
  type WhatsAppContact,
} from '../delivery.ts';
import { createOnce, docId, DOCS_PER_COMMIT, transact, usableId } from './database.ts';

export const DELIVERY_SETTINGS = 'deliverySettings';
export const ALERTS = 'alerts';
export const WHATSAPP_CONTACTS = 'whatsappContacts';
export const DELIVERY_LOG = 'deliveryLog';

/** Whole documents of each record (the transfer writes the same). */
export const settingsDocOf = (s: DeliverySettings): Record<string, unknown> => ({ ...s, series: [...s.series], active: s.email || s.whatsapp });
export const settingsOf = (data: DocumentData): DeliverySettings => ({
  uid: String(data['uid']),
  series: (data['series'] as string[] | undefined) ?? [],
  email: data['email'] === true,
  whatsapp: data['whatsapp'] === true,
  hour: Number(data['hour']),
  ...(data['language'] === 'en' || data['language'] === 'hi' ? { language: data['language'] } : {}),
  whatsappNumber: (data['whatsappNumber'] as string | null | undefined) ?? null,
  whatsappVerifiedAt: (data['whatsappVerifiedAt'] as string | null | undefined) ?? null,
  pending: (data['pending'] as DeliverySettings['pending'] | undefined) ?? null,
  updatedAt: String(data['updatedAt']),
});
export const alertDocOf = (a: AlertRecord): Record<string, unknown> => ({ ...a, channels: [...a.channels] });
export const alertOf = (data: DocumentData): AlertRecord => ({
  id: String(data['id']),
  uid: String(data['uid']),
  instrument: String(data['instrument']),
  kind: data['kind'] as AlertRecord['kind'],
  value: Number(data['value']),
  channels: (data['channels'] as AlertRecord['channels'] | undefined) ?? [],
  reached: (data['reached'] as boolean | null | undefined) ?? null,
  firedFor: (data['firedFor'] as string | null | undefined) ?? null,
  crossings: Number(data['crossings'] ?? 0),
  createdAt: String(data['createdAt']),
  updatedAt: String(data['updatedAt']),
});
export const contactDocOf = (c: WhatsAppContact): Record<string, unknown> => ({ ...c, codeSentAt: [...c.codeSentAt] });
export const contactOf = (data: DocumentData): WhatsAppContact => ({
  number: String(data['number']),
  uid: (data['uid'] as string | null | undefined) ?? null,
  optedIn: data['optedIn'] === true,
  optInAt: (data['optInAt'] as string | null | undefined) ?? null,
  optOutAt: (data['optOutAt'] as string | null | undefined) ?? null,
  lastInboundAt: (data['lastInboundAt'] as string | null | undefined) ?? null,
  codeSentAt: (data['codeSentAt'] as string[] | undefined) ?? [],
  updatedAt: String(data['updatedAt']),
});
/** The record, and the Timestamp a TTL policy deletes it after (a Date becomes a Timestamp). */
export const logDocOf = (l: DeliveryLogRecord): Record<string, unknown> => ({ ...l, expireAt: new Date(Date.parse(l.createdAt) + DELIVERY_LOG_RETENTION_MS) });
export const logOf = (data: DocumentData): DeliveryLogRecord => ({
  key: String(data['key']),
  uid: String(data['uid']),
  kind: data['kind'] as DeliveryLogRecord['kind'],
  ref: String(data['ref']),
  channel: data['channel'] as DeliveryLogRecord['channel'],
  status: data['status'] as DeliveryLogRecord['status'],
  // Records written before creation times and claim tokens existed.
  createdAt: String(data['createdAt'] ?? data['claimedAt']),
  claimedAt: String(data['claimedAt']),
  claimId: (data['claimId'] as string | null | undefined) ?? null,
  sentAt: (data['sentAt'] as string | null | undefined) ?? null,
  payload: (data['payload'] as string | null | undefined) ?? null,
});

/** A log key as a document id (`/` and `%` escaped). */
export const logDocId = (key: string): string => docId(encodeURIComponent(key));

const byCreation = (a: AlertRecord, b: AlertRecord): number => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export function createFirestoreDeliveryStore(db: Firestore): DeliveryStore {
  const settingsRef = (uid: string) => db.collection(DELIVERY_SETTINGS).doc(docId(uid));
  const alertRef = (id: string) => db.collection(ALERTS).doc(docId(id));
  const contactRef = (number: string) => db.collection(WHATSAPP_CONTACTS).doc(docId(number));
  const logRef = (key: string) => db.collection(DELIVERY_LOG).doc(logDocId(key));

  /** The writes of a verification (tryWhatsAppCode's right code), in the caller's transaction (after its one read). */
  async function verifyIn(tx: Transaction, settings: DeliverySettings, number: string, now: Date): Promise<void> {
    const uid = settings.uid;
    const previous = settings.whatsappNumber && settings.whatsappNumber !== number && usableId(settings.whatsappNumber) ? settings.whatsappNumber : null;
    const oldContact = previous ? await tx.get(contactRef(previous)) : null;
    const others = await tx.get(db.collection(DELIVERY_SETTINGS).where('whatsappNumber', '==', number));
    const contact = await tx.get(contactRef(number));
    const at = now.toISOString();
    if (previous && oldContact?.exists && oldContact.get('uid') === uid) tx.set(contactRef(previous), contactDocOf({ ...contactOf(oldContact.data()!), uid: null, updatedAt: at }));
    for (const other of others.docs) {
      if (other.id === uid) continue;
      tx.set(other.ref, settingsDocOf({ ...settingsOf(other.data()), whatsappNumber: null, whatsappVerifiedAt: null, whatsapp: false, updatedAt: at }));
    }
    tx.set(settingsRef(uid), settingsDocOf(verifiedSettings(settings, number, now)));
    tx.set(contactRef(number), contactDocOf(verifiedContact(contact.exists ? contactOf(contact.data()!) : null, number, uid, now)));
  }

  /** Ends a claim (sent, pending again, dropped) if it still holds its record. */
  function endClaim(claim: DeliveryClaim, end: 'sent' | 'pending' | 'dropped', now: Date): Promise<boolean> {
    const key = deliveryKey(claim.delivery);
    return transact(db, async (tx) => {
      const snapshot = await tx.get(logRef(key));
      const record = snapshot.exists ? logOf(snapshot.data()!) : null;
      if (!record || !holds(record, claim)) return false;
      tx.set(logRef(key), logDocOf(endedRecord(record, end, now)));
      return true;
    });
  }

  return {
    async getDeliverySettings(uid) {
      if (!usableId(uid)) return null;
      const snapshot = await settingsRef(uid).get();
      return snapshot.exists ? settingsOf(snapshot.data()!) : null;
    },

    async saveDeliverySettings(settings) {
      await transact(db, async (tx) => {
        tx.set(settingsRef(settings.uid), settingsDocOf(settings));
      });
    },

    patchDeliverySettings(uid, patch, now, base) {
      if (!usableId(uid)) return Promise.resolve(null);
      return transact(db, async (tx) => {
        const snapshot = await tx.get(settingsRef(uid));
        const current = snapshot.exists ? settingsOf(snapshot.data()!) : base;
        if (!current) return null;
        const next = patchedSettings({ ...current, uid }, patch, now);
        tx.set(settingsRef(uid), settingsDocOf(next));
        return next;
      });
    },

    async listActiveDeliverySettings() {
      const snapshot = await db.collection(DELIVERY_SETTINGS).where('active', '==', true).get();
      return snapshot.docs.map((doc) => settingsOf(doc.data())).toSorted((a, b) => a.uid.localeCompare(b.uid));
    },

    startWhatsAppCode({ uid, number, codeHash, expiresAt, now, limits, base }) {
      if (!usableId(uid) || !usableId(number)) return Promise.reject(new RangeError('not a usable uid or number'));
      return transact(db, async (tx) => {
        const contactSnapshot = await tx.get(contactRef(number));
        const settingsSnapshot = await tx.get(settingsRef(uid));
        const contact = contactSnapshot.exists ? contactOf(contactSnapshot.data()!) : null;
        const decision = codeStartOf(contact, now, limits);
        if (!decision.ok) return decision;
        const settings = settingsSnapshot.exists ? settingsOf(settingsSnapshot.data()!) : base;
        tx.set(contactRef(number), contactDocOf(contactWithCodeSent(contact, number, now, limits)));
        tx.set(settingsRef(uid), settingsDocOf({ ...settings, uid, pending: { number, codeHash, expiresAt, attempts: 0 }, updatedAt: now.toISOString() }));
        return decision;
      });
    },

    tryWhatsAppCode({ uid, code, now, maxAttempts }) {
      if (!usableId(uid)) return Promise.resolve({ outcome: 'none' } as const);
      return transact(db, async (tx) => {
        const snapshot = await tx.get(settingsRef(uid));
        const { result, counted } = codeTryOf(snapshot.exists ? settingsOf(snapshot.data()!) : null, uid, code, now, maxAttempts);
        if (!counted) return result;
        if (result.outcome === 'verified' && usableId(result.number)) await verifyIn(tx, counted, result.number, now);
        else tx.set(settingsRef(uid), settingsDocOf(counted));
        return result;
      });
    },

    async createAlert(alert) {
      return createOnce(db, `${ALERTS}/${docId(alert.id)}`, alertDocOf(alert));
    },

    async listAlertsByUid(uid) {
      if (!uid) return [];
      const snapshot = await db.collection(ALERTS).where('uid', '==', uid).get();
      return snapshot.docs.map((doc) => alertOf(doc.data())).toSorted(byCreation);
    },

    async listAlertsByInstrument(instrument) {
      if (!instrument) return [];
      const snapshot = await db.collection(ALERTS).where('instrument', '==', instrument).get();
      return snapshot.docs.map((doc) => alertOf(doc.data())).toSorted(byCreation);
    },

    deleteAlert(uid, id) {
      if (!usableId(id)) return Promise.resolve(false);
      return transact(db, async (tx) => {
        const snapshot = await tx.get(alertRef(id));
        if (!snapshot.exists || snapshot.get('uid') !== uid) return false;
        tx.delete(alertRef(id));
        return true;
      });
    },

    stepAlertState(id, from, to, now, deliveries = []) {
      if (!usableId(id)) return Promise.resolve(false);
      return transact(db, async (tx) => {
        const snapshot = await tx.get(alertRef(id));
        const existing = await Promise.all(deliveries.map((delivery) => tx.get(logRef(deliveryKey(delivery)))));
        if (!snapshot.exists) return false;
        const alert = alertOf(snapshot.data()!);
        if (!sameAlertState(alert, from)) return false;
        tx.set(alertRef(id), alertDocOf({ ...alert, reached: to.reached, firedFor: to.firedFor, crossings: to.crossings, updatedAt: now.toISOString() }));
        deliveries.forEach((delivery, i) => {
          if (!existing[i]!.exists) tx.set(logRef(deliveryKey(delivery)), logDocOf(pendingRecord(delivery, now)));
        });
        return true;
      });
    },

    async getWhatsAppContact(number) {
      if (!usableId(number)) return null;
      const snapshot = await contactRef(number).get();
      return snapshot.exists ? contactOf(snapshot.data()!) : null;
    },

    recordWhatsAppInbound(number, at) {
      return transact(db, async (tx) => {
        const snapshot = await tx.get(contactRef(number));
        const existing = snapshot.exists ? contactOf(snapshot.data()!) : strangerContact(number, at);
        const next: WhatsAppContact = { ...existing, lastInboundAt: at.toISOString(), updatedAt: at.toISOString() };
        tx.set(contactRef(number), contactDocOf(next));
        return next;
      });
    },

    setWhatsAppOptIn(number, optedIn, now) {
      return transact(db, async (tx) => {
        const snapshot = await tx.get(contactRef(number));
        const next = optedContact(snapshot.exists ? contactOf(snapshot.data()!) : strangerContact(number, now), optedIn, now);
        tx.set(contactRef(number), contactDocOf(next));
        return next;
      });
    },

    async claimDelivery(delivery, now, leaseMs = CLAIM_LEASE_MS) {
      const key = deliveryKey(delivery);
      const fresh = claimedRecord(delivery, null, randomUUID(), now);
      // The guard: exactly one create() of this key succeeds, on any instance.
      if (await createOnce(db, `${DELIVERY_LOG}/${logDocId(key)}`, logDocOf(fresh))) return claimOf(fresh);
      return transact(db, async (tx) => {
        const snapshot = await tx.get(logRef(key));
        const existing = snapshot.exists ? logOf(snapshot.data()!) : null;
        if (!claimable(existing, now, leaseMs)) return null;
        const record = claimedRecord(delivery, existing, randomUUID(), now);
        tx.set(logRef(key), logDocOf(record));
        return claimOf(record);
      });
    },

    completeDelivery(claim, now) {
      return endClaim(claim, 'sent', now);
    },

    releaseDelivery(claim) {
      return endClaim(claim, 'pending', new Date());
    },

    dropDelivery(claim, now) {
      return endClaim(claim, 'dropped', now);
    },

    async listUnsentDeliveries(kind) {
      // Equality on one field per query (no composite index); the kind is filtered here.
      const pages = await Promise.all(['pending', 'claimed'].map((status) => db.collection(DELIVERY_LOG).where('status', '==', status).get()));
      return pages
        .flatMap((page) => page.docs.map((doc) => logOf(doc.data())))
        .filter((record) => record.kind === kind)
        .toSorted((a, b) => a.createdAt.localeCompare(b.createdAt) || a.key.localeCompare(b.key));
    },

    async pruneDeliveries(before) {
      let pruned = 0;
      for (;;) {
        const page = await db.collection(DELIVERY_LOG).where('createdAt', '<', before.toISOString()).limit(DOCS_PER_COMMIT).get();
        if (page.empty) return pruned;
        await transact(db, async (tx) => {
          for (const doc of page.docs) tx.delete(doc.ref);
        });
        pruned += page.size;
        if (page.size < DOCS_PER_COMMIT) return pruned;
      }
    },

    async listDeliveries(uid) {
      if (!uid) return [];
      const snapshot = await db.collection(DELIVERY_LOG).where('uid', '==', uid).get();
      return snapshot.docs.map((doc) => logOf(doc.data())).toSorted((a, b) => b.claimedAt.localeCompare(a.claimedAt) || b.key.localeCompare(a.key));
    },
  };
}
