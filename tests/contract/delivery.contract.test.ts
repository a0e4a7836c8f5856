/**
 * The DeliveryStore contract: settings by uid (whole, and field patches in one transaction),
 * verification codes (the number's limits and STOP, tries counted before the compare, the
 * verification transaction), alerts with a compare-and-set state that records its messages,
 * WhatsApp contacts (inbound time, STOP/START) and the sent-log's claim (with its owner token) /
 * complete / release / drop / lease, unsent records and pruning, on every backend.
 */
import { describe, expect, it } from 'vitest';
import { INITIAL_ALERT_STATE } from '../../src/lib/delivery/alerts.ts';
import { whatsappCodeHash, type AlertRecord, type DeliverySettings, type NewDelivery } from '../../src/server/store/delivery.ts';
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

const CODE = '123456';
const pendingFor = (number: string, uid = 'u1') => ({ number, codeHash: whatsappCodeHash(uid, number, CODE), expiresAt: later(600_000).toISOString(), attempts: 0 });
const LIMITS = [{ windowMs: 600_000, max: 3 }, { windowMs: 86_400_000, max: 5 }];

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

    it('keep the language of the update (absent on records from before the choice: English), through saves and patches', async () => {
      await store().saveDeliverySettings(settings('u1'));
      expect(await store().getDeliverySettings('u1')).toEqual(settings('u1'));
      expect(await store().getDeliverySettings('u1')).not.toHaveProperty('language');
      expect(await store().patchDeliverySettings('u1', { language: 'hi' }, later(1), null)).toMatchObject({ language: 'hi', hour: 9 });
      expect(await store().getDeliverySettings('u1')).toEqual(settings('u1', { language: 'hi', updatedAt: later(1).toISOString() }));
      // A patch of other fields keeps it; the daily job's list carries it.
      await store().patchDeliverySettings('u1', { hour: 7 }, later(2), null);
      expect(await store().getDeliverySettings('u1')).toMatchObject({ language: 'hi', hour: 7 });
      expect((await store().listActiveDeliverySettings()).find((s) => s.uid === 'u1')).toMatchObject({ language: 'hi' });
      await store().saveDeliverySettings(settings('u2', { language: 'en' }));
      expect(await store().getDeliverySettings('u2')).toEqual(settings('u2', { language: 'en' }));
    });

    it('keep the weekly forecast digest option (absent on records from before it: off), through saves and patches; its sent-log records claim once', async () => {
      await store().saveDeliverySettings(settings('u1'));
      expect(await store().getDeliverySettings('u1')).not.toHaveProperty('forecastDigest');
      expect(await store().patchDeliverySettings('u1', { forecastDigest: true }, later(1), null)).toMatchObject({ forecastDigest: true, hour: 9 });
      await store().patchDeliverySettings('u1', { hour: 7, language: 'hi' }, later(2), null);
      expect(await store().getDeliverySettings('u1')).toMatchObject({ forecastDigest: true, hour: 7 });
      expect((await store().listActiveDeliverySettings()).find((s) => s.uid === 'u1')).toMatchObject({ forecastDigest: true });
      expect(await store().patchDeliverySettings('u1', { forecastDigest: false }, later(3), null)).toMatchObject({ forecastDigest: false, hour: 7 });
      const digest = { uid: 'u1', kind: 'digest', ref: '2026-11-30', channel: 'email' } as const;
      const claim = await store().claimDelivery(digest, later(4));
      expect(claim).not.toBeNull();
      expect(await store().claimDelivery(digest, later(4))).toBeNull();
      expect(await store().completeDelivery(claim!, later(5))).toBe(true);
      expect(await store().claimDelivery(digest, later(6))).toBeNull();
      expect((await store().listDeliveries('u1')).map((d) => [d.kind, d.ref, d.status])).toEqual([['digest', '2026-11-30', 'sent']]);
    });

    it('a patch changes only the fields it names, in one transaction: concurrent patches of other fields are all kept', async () => {
      expect(await store().patchDeliverySettings('u1', { email: false }, NOW, null)).toBeNull();
      expect(await store().getDeliverySettings('u1')).toBeNull();
      const base = settings('u1', { email: false, series: [] });
      expect(await store().patchDeliverySettings('u1', { hour: 7 }, NOW, base)).toEqual({ ...base, hour: 7 });
      await store().saveDeliverySettings({ ...(await store().getDeliverySettings('u1'))!, pending: pendingFor('919820000001') });
      await Promise.all([
        store().patchDeliverySettings('u1', { series: ['fx.usdinr'] }, later(1), null),
        store().patchDeliverySettings('u1', { email: true }, later(2), null),
        store().patchDeliverySettings('u1', { hour: 21 }, later(3), null),
      ]);
      expect(await store().getDeliverySettings('u1')).toMatchObject({ series: ['fx.usdinr'], email: true, hour: 21, pending: pendingFor('919820000001') });
      expect((await store().listActiveDeliverySettings()).map((s) => s.uid)).toEqual(['u1']);
      // WhatsApp stays off without a verified number.
      expect(await store().patchDeliverySettings('u1', { whatsapp: true }, later(4), null)).toMatchObject({ whatsapp: false });
      for (const id of ['', '..', 'a/b']) expect(await store().patchDeliverySettings(id, { email: true }, NOW, null), id).toBeNull();
    });

    it('a code for a number: recorded with its send time and asker; refused after STOP (until START) and beyond the limits of that account for that number', async () => {
      const base = (uid: string) => settings(uid, { email: false });
      const start = (uid: string, number: string, at: Date) =>
        store().startWhatsAppCode({ uid, number, codeHash: whatsappCodeHash(uid, number, CODE), expiresAt: new Date(at.getTime() + 600_000).toISOString(), now: at, limits: LIMITS, base: base(uid) });
      expect(await start('u1', '919820000050', NOW)).toEqual({ ok: true });
      expect(await store().getDeliverySettings('u1')).toMatchObject({ pending: { number: '919820000050', attempts: 0 }, email: false });
      expect(await store().getWhatsAppContact('919820000050')).toMatchObject({ uid: null, optedIn: false, codeSentAt: [NOW.toISOString()], codeSentBy: ['u1'] });
      expect(await start('u1', '919820000050', later(1000))).toEqual({ ok: true });
      expect(await start('u1', '919820000050', later(2000))).toEqual({ ok: true });
      // The fourth code to this number in 10 minutes for the same account: refused until its first leaves the window…
      expect(await start('u1', '919820000050', later(3000))).toEqual({ ok: false, reason: 'limited', retryAfterMs: 597_000 });
      // …while another account (the number's owner, say) is not held back by them.
      expect(await start('u4', '919820000050', later(3000))).toEqual({ ok: true });
      expect(await store().getDeliverySettings('u4')).toMatchObject({ pending: { number: '919820000050' } });
      expect(await start('u1', '919820000050', later(600_001))).toEqual({ ok: true });
      expect(await store().getWhatsAppContact('919820000050')).toMatchObject({ codeSentBy: ['u1', 'u1', 'u1', 'u4', 'u1'] });

      await store().setWhatsAppOptIn('919820000051', false, NOW);
      expect(await start('u1', '919820000051', later(1))).toEqual({ ok: false, reason: 'stopped' });
      await store().setWhatsAppOptIn('919820000051', true, later(2));
      expect(await start('u1', '919820000051', later(3))).toEqual({ ok: true });
    });

    it('a try is counted before the code is compared: concurrent wrong tries never exceed the limit, and the code then is none', async () => {
      await store().saveDeliverySettings(settings('u1', { pending: pendingFor('919820000060') }));
      const tries = await Promise.all(Array.from({ length: 12 }, () => store().tryWhatsAppCode({ uid: 'u1', code: '000000', now: NOW, maxAttempts: 5 })));
      expect(tries.filter((t) => t.outcome === 'wrong')).toHaveLength(5);
      expect(tries.filter((t) => t.outcome === 'none')).toHaveLength(7);
      expect((await store().getDeliverySettings('u1'))?.pending?.attempts).toBe(5);
      expect(await store().tryWhatsAppCode({ uid: 'u1', code: CODE, now: NOW, maxAttempts: 5 })).toEqual({ outcome: 'none' });
      expect((await store().getDeliverySettings('u1'))?.whatsappNumber).toBeNull();
    });

    it('the right code verifies the number: it then belongs to one user, opted in at that time', async () => {
      await store().saveDeliverySettings(settings('u1', { pending: pendingFor('919820000010') }));
      expect(await store().tryWhatsAppCode({ uid: 'nobody', code: CODE, now: NOW, maxAttempts: 5 })).toEqual({ outcome: 'none' });
      expect(await store().tryWhatsAppCode({ uid: 'u1', code: '654321', now: NOW, maxAttempts: 5 })).toEqual({ outcome: 'wrong' });
      expect(await store().tryWhatsAppCode({ uid: 'u1', code: CODE, now: NOW, maxAttempts: 5 })).toEqual({ outcome: 'verified', number: '919820000010' });
      // The number is theirs; the daily update's channels stay as saved (the form turns WhatsApp on).
      expect(await store().getDeliverySettings('u1')).toMatchObject({ whatsappNumber: '919820000010', whatsappVerifiedAt: NOW.toISOString(), whatsapp: false, pending: null });
      expect(await store().getWhatsAppContact('919820000010')).toMatchObject({ uid: 'u1', optedIn: true, optInAt: NOW.toISOString() });
      // Twice is refused (nothing pending any more).
      expect(await store().tryWhatsAppCode({ uid: 'u1', code: CODE, now: later(1), maxAttempts: 5 })).toEqual({ outcome: 'none' });

      // Another user verifies the same number: it is theirs now, and u1 has no number (nor WhatsApp on).
      await store().patchDeliverySettings('u1', { whatsapp: true }, later(1000), null);
      expect(await store().getDeliverySettings('u1')).toMatchObject({ whatsapp: true });
      await store().saveDeliverySettings(settings('u2', { pending: pendingFor('919820000010', 'u2') }));
      expect(await store().tryWhatsAppCode({ uid: 'u2', code: CODE, now: later(2000), maxAttempts: 5 })).toMatchObject({ outcome: 'verified' });
      expect(await store().getWhatsAppContact('919820000010')).toMatchObject({ uid: 'u2', optedIn: true });
      expect(await store().getDeliverySettings('u1')).toMatchObject({ whatsappNumber: null, whatsapp: false });

      // u2 moves to a new number: the old one is no longer theirs.
      await store().saveDeliverySettings({ ...(await store().getDeliverySettings('u2'))!, pending: pendingFor('919820000011', 'u2') });
      expect(await store().tryWhatsAppCode({ uid: 'u2', code: CODE, now: later(3000), maxAttempts: 5 })).toMatchObject({ outcome: 'verified' });
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

    it('a state step is a compare-and-set: of two writers that saw one state, one wins, and only its messages are recorded', async () => {
      await store().createAlert(alert('al_s', 'u1'));
      const armed = { reached: false, firedFor: null, crossings: 0 };
      const fired = { reached: true, firedFor: null, crossings: 1 };
      expect(await store().stepAlertState('al_s', INITIAL_ALERT_STATE, armed, NOW)).toBe(true);
      const messages = (payload: string) => (['email', 'whatsapp'] as const).map((channel) => ({ uid: 'u1', kind: 'alert' as const, ref: 'al_s#1', channel, payload }));
      const both = await Promise.all([store().stepAlertState('al_s', armed, fired, later(1), messages('first')), store().stepAlertState('al_s', armed, fired, later(1), messages('second'))]);
      expect(both.toSorted()).toEqual([false, true]);
      expect((await store().listAlertsByUid('u1'))[0]).toMatchObject({ ...fired, updatedAt: later(1).toISOString() });
      const recorded = await store().listUnsentDeliveries('alert');
      expect(recorded.map((r) => [r.key, r.status, r.createdAt])).toEqual([
        ['alert:u1:al_s#1:email', 'pending', later(1).toISOString()],
        ['alert:u1:al_s#1:whatsapp', 'pending', later(1).toISOString()],
      ]);
      expect(new Set(recorded.map((r) => r.payload)).size).toBe(1);
      expect(await store().stepAlertState('none', armed, fired, NOW, messages('x'))).toBe(false);
      expect(await store().listUnsentDeliveries('alert')).toHaveLength(2);
    });

    it('an event alert fires once per event: of two writers recording one firing, one wins; the same firing again, or for a deleted alert, records nothing', async () => {
      await store().createAlert(alert('al_r', 'u1', { instrument: 'revisions.PP', kind: 'revision', value: 0 }));
      expect((await store().listAlertsByInstrument('revisions.PP')).map((a) => a.id)).toEqual(['al_r']);
      const firing = (event: string, payload = 'p') => (['email', 'whatsapp'] as const).map((channel) => ({ uid: 'u1', kind: 'alert' as const, ref: `al_r#${event}`, channel, payload }));
      const both = await Promise.all([store().recordAlertFiring('al_r', firing('reliance.PP.2026-11-24', 'first'), later(1)), store().recordAlertFiring('al_r', firing('reliance.PP.2026-11-24', 'second'), later(1))]);
      expect(both.toSorted()).toEqual([false, true]);
      expect((await store().listAlertsByUid('u1'))[0]).toMatchObject({ kind: 'revision', crossings: 1, firedFor: 'reliance.PP.2026-11-24', updatedAt: later(1).toISOString() });
      const recorded = await store().listUnsentDeliveries('alert');
      expect(recorded.map((r) => [r.key, r.status])).toEqual([
        ['alert:u1:al_r#reliance.PP.2026-11-24:email', 'pending'],
        ['alert:u1:al_r#reliance.PP.2026-11-24:whatsapp', 'pending'],
      ]);
      expect(new Set(recorded.map((r) => r.payload)).size).toBe(1);
      // Sent, then recorded again (a re-run, another instance): nothing new.
      const claim = (await store().claimDelivery(recorded[0]!, later(2)))!;
      await store().completeDelivery(claim, later(2));
      expect(await store().recordAlertFiring('al_r', firing('reliance.PP.2026-11-24'), later(3))).toBe(false);
      expect((await store().listAlertsByUid('u1'))[0]!.crossings).toBe(1);
      // Another event fires; a deleted alert records nothing.
      expect(await store().recordAlertFiring('al_r', firing('iocl.PP.2026-11-24'), later(4))).toBe(true);
      expect((await store().listAlertsByUid('u1'))[0]).toMatchObject({ crossings: 2, firedFor: 'iocl.PP.2026-11-24' });
      expect(await store().deleteAlert('u1', 'al_r')).toBe(true);
      expect(await store().recordAlertFiring('al_r', firing('haldia.PP.2026-11-24'), later(5))).toBe(false);
      expect(await store().listUnsentDeliveries('alert')).toHaveLength(3);
    });
  });

  describe('WhatsApp contacts', () => {
    it('an inbound message records its time (a stranger gets a contact); STOP and START change the opt-in at once', async () => {
      expect(await store().getWhatsAppContact('919820000020')).toBeNull();
      expect(await store().recordWhatsAppInbound('919820000020', NOW)).toMatchObject({ number: '919820000020', uid: null, optedIn: false, lastInboundAt: NOW.toISOString() });
      await store().saveDeliverySettings(settings('u1', { pending: pendingFor('919820000020') }));
      await store().tryWhatsAppCode({ uid: 'u1', code: CODE, now: later(1000), maxAttempts: 5 });
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
      const claim = claims.find(Boolean)!;
      expect(claim).toMatchObject({ delivery: daily, claimId: expect.any(String), payload: null, createdAt: NOW.toISOString() });
      expect(await store().completeDelivery(claim, later(10))).toBe(true);
      expect(await store().claimDelivery(daily, later(24 * 3_600_000))).toBeNull();
      expect(await store().listDeliveries('u1')).toEqual([
        { key: 'daily:u1:2026-11-24:email', ...daily, status: 'sent', createdAt: NOW.toISOString(), claimedAt: NOW.toISOString(), claimId: null, sentAt: later(10).toISOString(), payload: null },
      ]);

      const whatsapp: NewDelivery = { ...daily, channel: 'whatsapp' };
      const first = (await store().claimDelivery(whatsapp, NOW))!;
      expect(await store().releaseDelivery(first)).toBe(true);
      expect((await store().listUnsentDeliveries('daily')).map((r) => [r.channel, r.status])).toEqual([['whatsapp', 'pending']]);
      const second = await store().claimDelivery(whatsapp, later(1));
      expect(second).not.toBeNull();
      // Releasing or completing a message whose claim is over does nothing.
      expect(await store().releaseDelivery(claim)).toBe(false);
      expect(await store().releaseDelivery(first)).toBe(false);
      expect(await store().claimDelivery(daily, later(2))).toBeNull();
    });

    it('a claim that was never completed lapses after its lease; the lapsed claim can then neither complete nor release', async () => {
      const alertMessage: NewDelivery = { uid: 'u1', kind: 'alert', ref: 'al_1#1', channel: 'whatsapp' };
      const a = (await store().claimDelivery(alertMessage, NOW, 60_000))!;
      expect(a).not.toBeNull();
      expect(await store().claimDelivery(alertMessage, later(59_000), 60_000)).toBeNull();
      const b = (await store().claimDelivery(alertMessage, later(61_000), 60_000))!;
      expect(b.claimId).not.toBe(a.claimId);
      expect(await store().claimDelivery(alertMessage, later(62_000), 60_000)).toBeNull();
      // A, late: its release would free B's live claim, its completion would mark B's message sent.
      expect(await store().releaseDelivery(a)).toBe(false);
      expect(await store().completeDelivery(a, later(63_000))).toBe(false);
      expect((await store().listDeliveries('u1'))[0]).toMatchObject({ status: 'claimed', claimId: b.claimId, claimedAt: later(61_000).toISOString() });
      expect(await store().completeDelivery(b, later(64_000))).toBe(true);
      expect(await store().dropDelivery(b, later(65_000))).toBe(false);
    });

    it('pending records are claimed with their payload; a dropped one is never claimed again; unsent ones are listed by kind', async () => {
      await store().createAlert(alert('al_p', 'u1'));
      const messages = (['email', 'whatsapp'] as const).map((channel) => ({ uid: 'u1', kind: 'alert' as const, ref: 'al_p#1', channel, payload: '{"latest":{"date":"2026-11-24","value":91}}' }));
      await store().stepAlertState('al_p', INITIAL_ALERT_STATE, { reached: true, firedFor: null, crossings: 1 }, NOW, messages);
      const email = (await store().claimDelivery(messages[0]!, later(1000)))!;
      expect(email).toMatchObject({ payload: messages[0]!.payload, createdAt: NOW.toISOString() });
      expect(await store().dropDelivery(email, later(2000))).toBe(true);
      expect(await store().claimDelivery(messages[0]!, later(3000))).toBeNull();
      expect((await store().listUnsentDeliveries('alert')).map((r) => r.channel)).toEqual(['whatsapp']);
      expect(await store().listUnsentDeliveries('daily')).toEqual([]);
      const whatsapp = (await store().claimDelivery(messages[1]!, later(4000)))!;
      // A held claim stays listed (its lease may lapse); a sent one is gone from the list.
      expect((await store().listUnsentDeliveries('alert')).map((r) => r.status)).toEqual(['claimed']);
      await store().completeDelivery(whatsapp, later(5000));
      expect(await store().listUnsentDeliveries('alert')).toEqual([]);
    });

    it('pruning deletes the records created before a time, whatever their state', async () => {
      const at = (ms: number, ref: string) => store().claimDelivery({ uid: 'u9', kind: 'inbound', ref, channel: 'none' }, later(ms));
      const old = (await at(0, 'm1'))!;
      await store().completeDelivery(old, later(1));
      await at(1000, 'm2');
      await at(5000, 'm3');
      expect(await store().pruneDeliveries(later(5000))).toBe(2);
      expect((await store().listDeliveries('u9')).map((r) => r.ref)).toEqual(['m3']);
      expect(await store().pruneDeliveries(later(5000))).toBe(0);
    });

    it('keys may hold any text (message ids carry slashes)', async () => {
      const inbound: NewDelivery = { uid: '919820000030', kind: 'inbound', ref: 'wamid.HBgM/OTE5+ODIw==%2F', channel: 'none' };
      expect(await store().claimDelivery(inbound, NOW)).not.toBeNull();
      expect(await store().claimDelivery(inbound, NOW)).toBeNull();
      expect((await store().listDeliveries('919820000030'))[0]?.ref).toBe(inbound.ref);
    });
  });

  it('every delivery kind round-trips through the transfer port', async () => {
    await store().saveDeliverySettings(settings('u1', { pending: pendingFor('919820000040') }));
    await store().tryWhatsAppCode({ uid: 'u1', code: CODE, now: NOW, maxAttempts: 5 });
    await store().startWhatsAppCode({ uid: 'u2', number: '919820000041', codeHash: 'c'.repeat(64), expiresAt: later(1).toISOString(), now: NOW, limits: LIMITS, base: settings('u2') });
    await store().createAlert(alert('al_t', 'u1'));
    await store().claimDelivery({ uid: 'u1', kind: 'alert', ref: 'al_t#1', channel: 'email' }, NOW);
    await store().stepAlertState('al_t', INITIAL_ALERT_STATE, { reached: true, firedFor: null, crossings: 1 }, NOW, [{ uid: 'u1', kind: 'alert', ref: 'al_t#1', channel: 'whatsapp', payload: '{"x":1}' }]);
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
      expect(await other.claimDelivery({ uid: 'u1', kind: 'alert', ref: 'al_t#1', channel: 'email' }, NOW)).toBeNull();
      expect(await other.getWhatsAppContact('919820000041')).toMatchObject({ codeSentAt: [NOW.toISOString()] });
      expect(await other.claimDelivery({ uid: 'u1', kind: 'alert', ref: 'al_t#1', channel: 'whatsapp' }, NOW)).toMatchObject({ payload: '{"x":1}' });
    } finally {
      await other.close();
    }
  });
});
