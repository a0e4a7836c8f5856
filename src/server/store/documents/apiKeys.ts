/** API keys and their metering (../apiKeys.ts), written once over the document driver. */
import { auditedKey, MAX_API_KEYS, usageDayOf, meterRequest, usageDayId, type ApiKeyListing, type ApiKeyStore, type ApiKeyUsageDay } from '../apiKeys.ts';
import { byFields, type DocumentDriver } from './driver.ts';

export function createApiKeyStore(docs: DocumentDriver): ApiKeyStore {
  return {
    createApiKey: (key, actor) =>
      docs.transact(async (tx) => {
        if ((await tx.count('apiKeys', [{ index: 'ownerUid', value: key.ownerUid }])) >= MAX_API_KEYS) return 'limit';
        tx.create('apiKeys', key);
        await tx.audit({ at: key.createdAt, actor, action: 'apiKey.create', target: `apiKey:${key.id}`, before: null, after: auditedKey(key) });
        return 'created';
      }),

    async listApiKeys(ownerUid, now) {
      const [keys, meters] = await Promise.all([
        docs.list('apiKeys', [{ index: 'ownerUid', value: ownerUid }]),
        docs.list('apiKeyMeters', [{ index: 'ownerUid', value: ownerUid }]),
      ]);
      const month = usageDayOf(now).slice(0, 7);
      const meterOf = new Map(meters.map((m) => [m.keyId, m]));
      return keys.toSorted(byFields('createdAt', 'id')).map((key): ApiKeyListing => {
        const meter = meterOf.get(key.id);
        return { key, lastUsedAt: meter?.lastUsedAt ?? null, month, monthCount: meter?.month === month ? meter.monthCount : 0 };
      });
    },

    findApiKey: (id) => docs.get('apiKeys', id),

    deleteApiKey: (ownerUid, id, actor, now) =>
      docs.transact(async (tx) => {
        const key = await tx.get('apiKeys', id);
        if (key?.ownerUid !== ownerUid) return null;
        tx.delete('apiKeys', id);
        await tx.audit({ at: now.toISOString(), actor, action: 'apiKey.revoke', target: `apiKey:${id}`, before: auditedKey(key), after: null });
        return key;
      }),

    meterApiKey: (key, now, lease = { want: 1, giveBack: null }) =>
      docs.transact(async (tx) => {
        const day = usageDayOf(now);
        const back = lease.giveBack && lease.giveBack.unused > 0 ? lease.giveBack : null;
        const [meter, usage, backUsage] = await Promise.all([
          tx.get('apiKeyMeters', key.id),
          tx.get('apiKeyUsage', usageDayId(key.id, day)),
          back && back.day !== day ? tx.get('apiKeyUsage', usageDayId(key.id, back.day)) : null,
        ]);
        const { meter: next, ...reading } = meterRequest(key, meter, now, { want: lease.want, giveBack: back });
        if (reading.granted > 0 || back) tx.put('apiKeyMeters', next);
        const blank = (d: string): ApiKeyUsageDay => ({ id: usageDayId(key.id, d), keyId: key.id, ownerUid: key.ownerUid, day: d, requests: 0, refused: 0 });
        // An unused rest was counted on the day it was taken: it comes off that day.
        const givenBackToday = back?.day === day ? back.unused : 0;
        const today = usage ?? blank(day);
        tx.put('apiKeyUsage', { ...today, requests: Math.max(0, today.requests + reading.granted - givenBackToday), refused: today.refused + (reading.granted > 0 || lease.want === 0 ? 0 : 1) });
        if (back && backUsage) tx.put('apiKeyUsage', { ...backUsage, requests: Math.max(0, backUsage.requests - back.unused) });
        return reading;
      }),

    async apiKeyUsage(ownerUid, fromDay) {
      // Per owner: at most MAX_API_KEYS rows a day; sorted in memory (no composite index).
      const rows = await docs.list('apiKeyUsage', [{ index: 'ownerUid', value: ownerUid }]);
      return rows.filter((row) => row.day >= fromDay).toSorted(byFields<ApiKeyUsageDay>('day', 'keyId')).reverse();
    },
  };
}
