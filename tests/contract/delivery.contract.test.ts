/**
 * The DeliveryStore contract: settings by uid, the verification transaction, alerts with a
 * compare-and-set state, WhatsApp contacts (inbound time, STOP/START) and the sent-log's
 * claim / complete / release / lease, on every backend.
 */
import { describe, expect, it } from 'vitest';
import { INITIAL_ALERT_STATE } from '../../src/lib/delivery/alerts.ts';
import type { AlertRecord, DeliverySettings, NewDelivery } from '../../src/server/store/delivery.ts';
import { backends, storePerTest } from './backends.ts';

const NOW = new Date('2026-11-24T03:30:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

const settings = (uid: string, extra: Partial<DeliverySettings> = {}): DeliverySettings => ({
  uid,
  series: ['fx.usdinr', 'city.mumbai.ppRaffia'],
  email: true,
  whatsapp: false,
  hour: 9,
  whatsappNumber: null,
  whatsappVerifiedAt: null,
  pending: null,
  updatedAt: NOW.toISOString(),
  ...extra,
});

const alert = (id: string, uid: string, extra: Partial<AlertRecord> = {}): AlertRecord => ({
  id,
  uid,
  instrument: 'fx.usdinr',
  kind: 'above',
  value: 90,
  channels: ['email'],
  ...INITIAL_ALERT_STATE,
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
  ...extra,
});

const pendingFor = (number: string) => ({ number, codeHash: 'c'.repeat(64), expiresAt: later(600_000).toISOString(), attempts: 0 });

describe.each(backends)('delivery store on $name', (backend) => {
  const store = storePerTest(backend);

  describe('settings', () => {
    it('are saved whole by uid; only records with a channel on are active', async () => {
      expect(await store().getDeliverySettings('u1')).toBeNull();
      await store().saveDeliverySettings(settings('u1'));
      await store().saveDeliverySettings(settings('u2', { email: false }));
      await store().saveDeliverySettings(settings('u3', { email: false, whatsapp: true, whatsappNumber: '919820000003' }));
      expect(await store().getDeliverySettings('u1')).toEqual(settings('u1'));
      expect((await store().listActiveDeliverySettings()).map((s) => s.uid)).toEqual(['u1', 'u3']);
      // A second save replaces the record (a pending code is cleared by saving null).
      await store().saveDeliverySettings(settings('u1', { series: ['fx.usdinr'], email: false, pending: pendingFor('919820000001') }));
      await store().saveDeliverySettings(settings('u1', { series: ['fx.usdinr'], email: false }));
      expect(await store().getDeliverySettings('u1')).toEqual(settings('u1', { series: ['fx.usdinr'], email: false }));
      expect((await store().listActiveDeliverySettings()).map((s) => s.uid)).toEqual(['u3']);
      for (const id of ['', '..', 'a/b', '__x__']) expect(await store().getDeliverySettings(id), id).toBeNull();
    });

    it('verifying a number: only with its pending code; the number then belongs to one user, opted in at that time', async () => {
      await store().saveDeliverySettings(settings('u1', { pending: pendingFor('919820000010') }));
      expect(await store().verifyWhatsAppNumber({ uid: 'u1', number: '919820000099', now: NOW })).toBe(false);
      expect(await store().verifyWhatsAppNumber({ uid: 'nobody', number: '919820000010', now: NOW })).toBe(false);
      expect(await store().verifyWhatsAppNumber({ uid: 'u1', number: '919820000010', now: NOW })).toBe(true);
      expect(await store().getDeliverySettings('u1')).toMatchObject({ whatsappNumber: '919820000010', whatsappVerifiedAt: NOW.toISOString(), whatsapp: true, pending: null });
      expect(await store().getWhatsAppContact('919820000010')).toMatchObject({ uid: 'u1', optedIn: true, optInAt: NOW.toISOString() });
      // Twice is refused (nothing pending any more).
      expect(await store().verifyWhatsAppNumber({ uid: 'u1', number: '919820000010', now: later(1) })).toBe(false);

      // Another user verifies the same number: it is theirs now, and u1 has no number.
      await store().saveDeliverySettings(settings('u2', { pending: pendingFor('919820000010') }));
      expect(await store().verifyWhatsAppNumber({ uid: 'u2', number: '919820000010', now: later(2000) })).toBe(true);
      expect(await store().getWhatsAppContact('919820000010')).toMatchObject({ uid: 'u2', optedIn: true });
      expect(await store().getDeliverySettings('u1')).toMatchObject({ whatsappNumber: null, whatsapp: false });

      // u2 moves to a new number: the old one is no longer theirs.
      await store().saveDeliverySettings({ ...(await store().getDeliverySettings('u2'))!, pending: pendingFor('919820000011') });
      expect(await store().verifyWhatsAppNumber({ uid: 'u2', number: '919820000011', now: later(3000) })).toBe(true);
      expect(await store().getWhatsAppContact('919820000010')).toMatchObject({ uid: null });
      expect(await store().getWhatsAppContact('919820000011')).toMatchObject({ uid: 'u2', optedIn: true });
    });
  });

  describe('alerts', () => {
    it('are created once per id, listed by user and by instrument in creation order, deleted only by their owner', async () => {
      expect(await store().createAlert(alert('al_1', 'u1'))).toBe(true);
      expect(await store().createAlert(alert('al_1', 'intruder', { value: 1 }))).toBe(false);
      await store().createAlert(alert('al_2', 'u1', { instrument: 'city.mumbai.ppRaffia', kind: 'move', value: 2.5, createdAt: later(1000).toISOString() }));
      await store().createAlert(alert('al_3', 'u2', { createdAt: later(2000).toISOString() }));
      expect((await store().listAlertsByUid('u1')).map((a) => a.id)).toEqual(['al_1', 'al_2']);
      expect((await store().listAlertsByInstrument('fx.usdinr')).map((a) => a.id)).toEqual(['al_1', 'al_3']);
      expect(await store().listAlertsByUid('u1')).toContainEqual(alert('al_2', 'u1', { instrument: 'city.mumbai.ppRaffia', kind: 'move', value: 2.5, createdAt: later(1000).toISOString() }));
      expect(await store().deleteAlert('u2', 'al_1')).toBe(false);
      expect(await store().deleteAlert('u1', 'al_1')).toBe(true);
      expect(await store().deleteAlert('u1', 'al_1')).toBe(false);
      expect(await store().deleteAlert('u1', 'a/b')).toBe(false);
      expect((await store().listAlertsByInstrument('fx.usdinr')).map((a) => a.id)).toEqual(['al_3']);
    });

    it('a state step is a compare-and-set: of two writers that saw one state, one wins', async () => {
      await store().createAlert(alert('al_s', 'u1'));
      const armed = { reached: false, firedFor: null, crossings: 0 };
      const fired = { reached: true, firedFor: null, crossings: 1 };
      expect(await store().stepAlertState('al_s', INITIAL_ALERT_STATE, armed, NOW)).toBe(true);
      const both = await Promise.all([store().stepAlertState('al_s', armed, fired, later(1)), store().stepAlertState('al_s', armed, fired, later(1))]);
      expect(both.toSorted()).toEqual([false, true]);
      expect((await store().listAlertsByUid('u1'))[0]).toMatchObject({ ...fired, updatedAt: later(1).toISOString() });
      expect(await store().stepAlertState('none', armed, fired, NOW)).toBe(false);
    });
  });

  describe('WhatsApp contacts', () => {
    it('an inbound message records its time (a stranger gets a contact); STOP and START change the opt-in at once', async () => {
      expect(await store().getWhatsAppContact('919820000020')).toBeNull();
      expect(await store().recordWhatsAppInbound('919820000020', NOW)).toMatchObject({ number: '919820000020', uid: null, optedIn: false, lastInboundAt: NOW.toISOString() });
      await store().saveDeliverySettings(settings('u1', { pending: pendingFor('919820000020') }));
      await store().verifyWhatsAppNumber({ uid: 'u1', number: '919820000020', now: later(1000) });
      // Verification keeps the inbound time.
      expect(await store().getWhatsAppContact('919820000020')).toMatchObject({ uid: 'u1', optedIn: true, lastInboundAt: NOW.toISOString() });
      expect(await store().setWhatsAppOptIn('919820000020', false, later(2000))).toMatchObject({ optedIn: false, optOutAt: later(2000).toISOString(), uid: 'u1' });
      expect(await store().getWhatsAppContact('919820000020')).toMatchObject({ optedIn: false });
      expect(await store().setWhatsAppOptIn('919820000020', true, later(3000))).toMatchObject({ optedIn: true, optInAt: later(3000).toISOString() });
    });
  });

  describe('the sent-log', () => {
    const daily: NewDelivery = { uid: 'u1', kind: 'daily', ref: '2026-11-24', channel: 'email' };

    it('one claim wins; a sent message is never claimed again; a released one is', async () => {
      const claims = await Promise.all([store().claimDelivery(daily, NOW), store().claimDelivery(daily, NOW), store().claimDelivery(daily, NOW)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      await store().completeDelivery(daily, later(10));
      expect(await store().claimDelivery(daily, later(24 * 3_600_000))).toBe(false);
      expect(await store().listDeliveries('u1')).toEqual([{ key: 'daily:u1:2026-11-24:email', ...daily, status: 'sent', claimedAt: NOW.toISOString(), sentAt: later(10).toISOString() }]);

      const whatsapp: NewDelivery = { ...daily, channel: 'whatsapp' };
      expect(await store().claimDelivery(whatsapp, NOW)).toBe(true);
      await store().releaseDelivery(whatsapp);
      expect(await store().claimDelivery(whatsapp, later(1))).toBe(true);
      // Releasing a sent message does nothing.
      await store().releaseDelivery(daily);
      expect(await store().claimDelivery(daily, later(2))).toBe(false);
    });

    it('a claim that was never completed lapses after its lease (a sender that died)', async () => {
      const alertMessage: NewDelivery = { uid: 'u1', kind: 'alert', ref: 'al_1#1', channel: 'whatsapp' };
      expect(await store().claimDelivery(alertMessage, NOW, 60_000)).toBe(true);
      expect(await store().claimDelivery(alertMessage, later(59_000), 60_000)).toBe(false);
      expect(await store().claimDelivery(alertMessage, later(61_000), 60_000)).toBe(true);
      expect(await store().claimDelivery(alertMessage, later(62_000), 60_000)).toBe(false);
    });

    it('keys may hold any text (message ids carry slashes)', async () => {
      const inbound: NewDelivery = { uid: '919820000030', kind: 'inbound', ref: 'wamid.HBgM/OTE5+ODIw==%2F', channel: 'none' };
      expect(await store().claimDelivery(inbound, NOW)).toBe(true);
      expect(await store().claimDelivery(inbound, NOW)).toBe(false);
      expect((await store().listDeliveries('919820000030'))[0]?.ref).toBe(inbound.ref);
    });
  });

  it('every delivery kind round-trips through the transfer port', async () => {
    await store().saveDeliverySettings(settings('u1', { pending: pendingFor('919820000040') }));
    await store().verifyWhatsAppNumber({ uid: 'u1', number: '919820000040', now: NOW });
    await store().createAlert(alert('al_t', 'u1'));
    await store().claimDelivery({ uid: 'u1', kind: 'alert', ref: 'al_t#1', channel: 'email' }, NOW);
    const exported: Record<string, unknown[]> = {};
    for (const kind of ['deliverySettings', 'alerts', 'whatsappContacts', 'deliveryLog'] as const) {
      exported[kind] = [];
      for await (const page of store().exportRecords(kind)) exported[kind].push(...page);
    }
    const other = await backend.open();
    try {
      for (const kind of ['deliverySettings', 'alerts', 'whatsappContacts', 'deliveryLog'] as const) {
        expect(await other.importRecords(kind, exported[kind] as never[]), kind).toBe(exported[kind]!.length);
        const back: unknown[] = [];
        for await (const page of other.exportRecords(kind)) back.push(...page);
        expect(back, kind).toEqual(exported[kind]);
      }
      expect(await other.getDeliverySettings('u1')).toEqual(await store().getDeliverySettings('u1'));
      expect(await other.claimDelivery({ uid: 'u1', kind: 'alert', ref: 'al_t#1', channel: 'email' }, NOW)).toBe(false);
    } finally {
      await other.close();
    }
  });
});
