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

    meterApiKey: (key, now) =>
      docs.transact(async (tx) => {
        const day = usageDayOf(now);
        const [meter, usage] = await Promise.all([tx.get('apiKeyMeters', key.id), tx.get('apiKeyUsage', usageDayId(key.id, day))]);
        const { meter: next, ...reading } = meterRequest(key, meter, now);
        if (reading.allowed) tx.put('apiKeyMeters', next);
        const today: ApiKeyUsageDay = usage ?? { id: usageDayId(key.id, day), keyId: key.id, ownerUid: key.ownerUid, day, requests: 0, refused: 0 };
        tx.put('apiKeyUsage', reading.allowed ? { ...today, requests: today.requests + 1 } : { ...today, refused: today.refused + 1 });
        return reading;
      }),

    async apiKeyUsage(ownerUid, fromDay) {
      // Per owner: at most MAX_API_KEYS rows a day; sorted in memory (no composite index).
      const rows = await docs.list('apiKeyUsage', [{ index: 'ownerUid', value: ownerUid }]);
      return rows.filter((row) => row.day >= fromDay).toSorted(byFields<ApiKeyUsageDay>('day', 'keyId')).reverse();
    },
  };
}
