/**
 * Firestore adapter of the delivery store. Documents are always written whole, with the same
 * top-level fields (docs/data.md, "What the offline stand-in cannot do"):
 * - `deliverySettings/{uid}`: the DeliverySettings fields, plus `active` (a channel is on);
 * - `alerts/{id}`: the AlertRecord fields (queried by `uid` and by `instrument`);
 * - `whatsappContacts/{number}`: the WhatsAppContact fields;
 * - `deliveryLog/{key}` (the key URI-encoded: message ids may hold `/`): the DeliveryLogRecord
 *   fields. A claim is a create() first, so two instances racing for one message cannot both
 *   win; only a lapsed claim is taken over in a transaction.
 */
import type { DocumentData, Firestore } from 'firebase-admin/firestore';
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
  type DeliveryLogRecord,
  type DeliverySettings,
  type DeliveryStore,
  type WhatsAppContact,
} from '../delivery.ts';
import { createOnce, docId, transact, usableId } from './database.ts';

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
export const contactDocOf = (c: WhatsAppContact): Record<string, unknown> => ({ ...c });
export const contactOf = (data: DocumentData): WhatsAppContact => ({
  number: String(data['number']),
  uid: (data['uid'] as string | null | undefined) ?? null,
  optedIn: data['optedIn'] === true,
  optInAt: (data['optInAt'] as string | null | undefined) ?? null,
  optOutAt: (data['optOutAt'] as string | null | undefined) ?? null,
  lastInboundAt: (data['lastInboundAt'] as string | null | undefined) ?? null,
  updatedAt: String(data['updatedAt']),
});
export const logDocOf = (l: DeliveryLogRecord): Record<string, unknown> => ({ ...l });
export const logOf = (data: DocumentData): DeliveryLogRecord => ({
  key: String(data['key']),
  uid: String(data['uid']),
  kind: data['kind'] as DeliveryLogRecord['kind'],
  ref: String(data['ref']),
  channel: data['channel'] as DeliveryLogRecord['channel'],
  status: data['status'] as DeliveryLogRecord['status'],
  claimedAt: String(data['claimedAt']),
  sentAt: (data['sentAt'] as string | null | undefined) ?? null,
});

/** A log key as a document id (`/` and `%` escaped). */
export const logDocId = (key: string): string => docId(encodeURIComponent(key));

const byCreation = (a: AlertRecord, b: AlertRecord): number => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export function createFirestoreDeliveryStore(db: Firestore): DeliveryStore {
  const settingsRef = (uid: string) => db.collection(DELIVERY_SETTINGS).doc(docId(uid));
  const alertRef = (id: string) => db.collection(ALERTS).doc(docId(id));
  const contactRef = (number: string) => db.collection(WHATSAPP_CONTACTS).doc(docId(number));
  const logRef = (key: string) => db.collection(DELIVERY_LOG).doc(logDocId(key));

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

    async listActiveDeliverySettings() {
      const snapshot = await db.collection(DELIVERY_SETTINGS).where('active', '==', true).get();
      return snapshot.docs.map((doc) => settingsOf(doc.data())).toSorted((a, b) => a.uid.localeCompare(b.uid));
    },

    verifyWhatsAppNumber({ uid, number, now }) {
      if (!usableId(uid) || !usableId(number)) return Promise.resolve(false);
      return transact(db, async (tx) => {
        const snapshot = await tx.get(settingsRef(uid));
        const settings = snapshot.exists ? settingsOf(snapshot.data()!) : null;
        if (!settings || settings.pending?.number !== number) return false;
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
        return true;
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

    stepAlertState(id, from, to, now) {
      if (!usableId(id)) return Promise.resolve(false);
      return transact(db, async (tx) => {
        const snapshot = await tx.get(alertRef(id));
        if (!snapshot.exists) return false;
        const alert = alertOf(snapshot.data()!);
        if (!sameAlertState(alert, from)) return false;
        tx.set(alertRef(id), alertDocOf({ ...alert, reached: to.reached, firedFor: to.firedFor, crossings: to.crossings, updatedAt: now.toISOString() }));
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
      const record: DeliveryLogRecord = { key, ...delivery, status: 'claimed', claimedAt: now.toISOString(), sentAt: null };
      // The guard: exactly one create() of this key succeeds, on any instance.
      if (await createOnce(db, `${DELIVERY_LOG}/${logDocId(key)}`, logDocOf(record))) return true;
      return transact(db, async (tx) => {
        const snapshot = await tx.get(logRef(key));
        if (!claimable(snapshot.exists ? logOf(snapshot.data()!) : null, now, leaseMs)) return false;
        tx.set(logRef(key), logDocOf(record));
        return true;
      });
    },

    async completeDelivery(delivery, now) {
      const key = deliveryKey(delivery);
      await transact(db, async (tx) => {
        const snapshot = await tx.get(logRef(key));
        if (!snapshot.exists) return;
        tx.set(logRef(key), logDocOf({ ...logOf(snapshot.data()!), status: 'sent', sentAt: now.toISOString() }));
      });
    },

    async releaseDelivery(delivery) {
      const key = deliveryKey(delivery);
      await transact(db, async (tx) => {
        const snapshot = await tx.get(logRef(key));
        if (snapshot.exists && snapshot.get('status') === 'claimed') tx.delete(logRef(key));
      });
    },

    async listDeliveries(uid) {
      if (!uid) return [];
      const snapshot = await db.collection(DELIVERY_LOG).where('uid', '==', uid).get();
      return snapshot.docs.map((doc) => logOf(doc.data())).toSorted((a, b) => b.claimedAt.localeCompare(a.claimedAt) || b.key.localeCompare(a.key));
    },
  };
}
