/**
 * Delivery settings, alerts, WhatsApp contacts and the sent-log (../delivery.ts), written once
 * over the document driver. Every change is a transaction that reads, decides (the pure rules
 * of ../delivery.ts) and writes whole records; a new claim is a create, so two instances
 * racing for one message cannot both win.
 */
import { randomUUID } from 'node:crypto';
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
  type DeliveryClaim,
  type DeliveryLogRecord,
  type DeliverySettings,
  type DeliveryStore,
  type WhatsAppContact,
} from '../delivery.ts';
import { byFields, type DocumentDriver, type DocumentTransaction } from './driver.ts';

/** Deletions per transaction when pruning the sent-log. */
const PRUNE_PAGE = 400;

const byCreation = byFields<AlertRecord>('createdAt', 'id');

/** The writes of a verification (tryWhatsAppCode's right code), in the caller's transaction. */
async function verifyIn(tx: DocumentTransaction, settings: DeliverySettings, number: string, now: Date): Promise<void> {
  const uid = settings.uid;
  const previous = settings.whatsappNumber && settings.whatsappNumber !== number ? settings.whatsappNumber : null;
  const oldContact = previous ? await tx.get('whatsappContacts', previous) : null;
  // Another user who verified this number before loses it (the number is one person's).
  const others = (await tx.list('deliverySettings', [{ index: 'whatsappNumber', value: number }])).filter((other) => other.uid !== uid);
  const contact = await tx.get('whatsappContacts', number);
  const at = now.toISOString();
  if (oldContact?.uid === uid) tx.put('whatsappContacts', { ...oldContact, uid: null, updatedAt: at });
  for (const other of others) tx.put('deliverySettings', { ...other, whatsappNumber: null, whatsappVerifiedAt: null, whatsapp: false, updatedAt: at });
  tx.put('deliverySettings', verifiedSettings(settings, number, now));
  tx.put('whatsappContacts', verifiedContact(contact, number, uid, now));
}

export function createDeliveryStore(docs: DocumentDriver): DeliveryStore {
  /** Ends a claim (sent, pending again, dropped) if it still holds its record. */
  const endClaim = (claim: DeliveryClaim, end: 'sent' | 'pending' | 'dropped', now: Date): Promise<boolean> =>
    docs.transact(async (tx) => {
      const record = await tx.get('deliveryLog', deliveryKey(claim.delivery));
      if (!record || !holds(record, claim)) return false;
      tx.put('deliveryLog', endedRecord(record, end, now));
      return true;
    });

  /** Changes a contact (a stranger's number gets one of its own). */
  const changeContact = (number: string, now: Date, change: (contact: WhatsAppContact) => WhatsAppContact): Promise<WhatsAppContact> =>
    docs.transact(async (tx) => {
      const next = change((await tx.get('whatsappContacts', number)) ?? strangerContact(number, now));
      tx.put('whatsappContacts', next);
      return next;
    });

  return {
    getDeliverySettings: (uid) => docs.get('deliverySettings', uid),

    saveDeliverySettings: (settings) => docs.transact(async (tx) => tx.put('deliverySettings', settings)),

    patchDeliverySettings(uid, patch, now, base) {
      return docs.transact(async (tx) => {
        const current = (await tx.get('deliverySettings', uid)) ?? base;
        if (!current) return null;
        const next = patchedSettings({ ...current, uid }, patch, now);
        tx.put('deliverySettings', next);
        return next;
      });
    },

    async listActiveDeliverySettings() {
      return (await docs.list('deliverySettings', [{ index: 'active', value: true }])).toSorted(byFields<DeliverySettings>('uid'));
    },

    startWhatsAppCode({ uid, number, codeHash, expiresAt, now, limits, base }) {
      return docs.transact(async (tx) => {
        const contact = await tx.get('whatsappContacts', number);
        const settings = (await tx.get('deliverySettings', uid)) ?? base;
        const decision = codeStartOf(contact, now, limits, uid);
        if (!decision.ok) return decision;
        tx.put('whatsappContacts', contactWithCodeSent(contact, number, now, limits, uid));
        tx.put('deliverySettings', { ...settings, uid, pending: { number, codeHash, expiresAt, attempts: 0 }, updatedAt: now.toISOString() });
        return decision;
      });
    },

    tryWhatsAppCode({ uid, code, now, maxAttempts }) {
      return docs.transact(async (tx) => {
        const { result, counted } = codeTryOf(await tx.get('deliverySettings', uid), uid, code, now, maxAttempts);
        if (!counted) return result;
        if (result.outcome === 'verified') await verifyIn(tx, counted, result.number, now);
        else tx.put('deliverySettings', counted);
        return result;
      });
    },

    createAlert: (alert) => docs.createOnce('alerts', alert),

    async listAlertsByUid(uid) {
      return uid ? (await docs.list('alerts', [{ index: 'uid', value: uid }])).toSorted(byCreation) : [];
    },

    async listAlertsByInstrument(instrument) {
      return instrument ? (await docs.list('alerts', [{ index: 'instrument', value: instrument }])).toSorted(byCreation) : [];
    },

    deleteAlert(uid, id) {
      return docs.transact(async (tx) => {
        if ((await tx.get('alerts', id))?.uid !== uid) return false;
        tx.delete('alerts', id);
        return true;
      });
    },

    stepAlertState(id, from, to, now, deliveries = []) {
      return docs.transact(async (tx) => {
        const alert = await tx.get('alerts', id);
        const existing = await Promise.all(deliveries.map((delivery) => tx.get('deliveryLog', deliveryKey(delivery))));
        if (!alert || !sameAlertState(alert, from)) return false;
        const next: AlertRecord = { ...alert, reached: to.reached, firedFor: to.firedFor, crossings: to.crossings, updatedAt: now.toISOString() };
        tx.put('alerts', next);
        deliveries.forEach((delivery, i) => {
          if (!existing[i]) tx.put('deliveryLog', pendingRecord(delivery, now));
        });
        return true;
      });
    },

    recordAlertFiring(id, deliveries, now) {
      return docs.transact(async (tx) => {
        const alert = await tx.get('alerts', id);
        const existing = await Promise.all(deliveries.map((delivery) => tx.get('deliveryLog', deliveryKey(delivery))));
        const fresh = deliveries.filter((_, i) => !existing[i]);
        if (!alert || fresh.length === 0 || fresh.length < deliveries.length) return false;
        const ref = fresh[0]!.ref;
        tx.put('alerts', { ...alert, firedFor: ref.slice(ref.lastIndexOf('#') + 1), crossings: alert.crossings + 1, updatedAt: now.toISOString() });
        for (const delivery of fresh) tx.put('deliveryLog', pendingRecord(delivery, now));
        return true;
      });
    },

    getWhatsAppContact: (number) => docs.get('whatsappContacts', number),

    recordWhatsAppInbound: (number, at) => changeContact(number, at, (contact) => ({ ...contact, lastInboundAt: at.toISOString(), updatedAt: at.toISOString() })),

    setWhatsAppOptIn: (number, optedIn, now) => changeContact(number, now, (contact) => optedContact(contact, optedIn, now)),

    async claimDelivery(delivery, now, leaseMs = CLAIM_LEASE_MS) {
      const fresh = claimedRecord(delivery, null, randomUUID(), now);
      // The guard: exactly one create of this key succeeds, on any instance.
      if (await docs.createOnce('deliveryLog', fresh)) return claimOf(fresh);
      return docs.transact(async (tx) => {
        const existing = await tx.get('deliveryLog', deliveryKey(delivery));
        if (!claimable(existing, now, leaseMs)) return null;
        const record = claimedRecord(delivery, existing, randomUUID(), now);
        tx.put('deliveryLog', record);
        return claimOf(record);
      });
    },

    completeDelivery: (claim, now) => endClaim(claim, 'sent', now),

    releaseDelivery: (claim) => endClaim(claim, 'pending', new Date()),

    dropDelivery: (claim, now) => endClaim(claim, 'dropped', now),

    async listUnsentDeliveries(kind) {
      const pages = await Promise.all(['pending', 'claimed'].map((status) => docs.list('deliveryLog', [{ index: 'status', value: status }, { index: 'kind', value: kind }])));
      return pages.flat().toSorted(byFields<DeliveryLogRecord>('createdAt', 'key'));
    },

    async pruneDeliveries(before) {
      let pruned = 0;
      for (;;) {
        const page = await docs.list('deliveryLog', [{ index: 'createdAt', op: '<', value: before.toISOString() }], { limit: PRUNE_PAGE });
        if (page.length === 0) return pruned;
        await docs.transact(async (tx) => {
          for (const record of page) tx.delete('deliveryLog', record.key);
        });
        pruned += page.length;
        if (page.length < PRUNE_PAGE) return pruned;
      }
    },

    async listDeliveries(uid) {
      if (!uid) return [];
      return (await docs.list('deliveryLog', [{ index: 'uid', value: uid }])).toSorted((a, b) => byFields<DeliveryLogRecord>('claimedAt', 'key')(b, a));
    },
  };
}
