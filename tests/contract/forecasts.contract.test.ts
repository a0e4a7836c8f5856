/**
 * The forecasts part of the Store port on both adapters: forecasts written once (the desk's
 * audited, baselines and the seed's added only where new), scores rewritten per revision, the
 * lists the pages read, and transfer (store:copy, backups) of both kinds.
 */
import { describe, expect, it } from 'vitest';
import { horizonEnd, type Forecast } from '../../src/lib/forecasts/model.ts';
import { scoreFor } from '../../src/lib/forecasts/scoring.ts';
import { forecastTarget, scoreRecordOf, type ScoreRecord } from '../../src/server/store/forecasts.ts';
import { attempt, backends, storePerTest } from './backends.ts';

const NOW = new Date('2026-11-24T06:00:00.000Z');
const DESK = { kind: 'desk', uid: 'editor-1', name: 'Asha Rao' } as const;
const ACTOR = { uid: 'editor-1', email: 'asha@polyindex.test' };
const PP = 'historical.ppRaffia.mumbai';

const call = (id: string, extra: Partial<Forecast> = {}): Forecast => ({
  id,
  seriesId: PP,
  horizon: '1w',
  direction: 'up',
  low: 1_150,
  high: 1_190,
  rationale: 'Naphtha is **firm**; converters restock before Diwali.',
  by: DESK,
  publishedAt: '2026-11-16T05:00:00.000Z',
  baseDate: '2026-11-16',
  baseValue: 1_140,
  endDate: horizonEnd('2026-11-16', '1w'),
  flatBandPct: 0.8,
  supersedes: null,
  ...extra,
});
const baseline = (baseDate: string, publishedAt: string): Forecast =>
  call(`baseline.${PP}.1w.${baseDate}`, { by: { kind: 'baseline', method: 'ets' }, direction: 'flat', low: 1_120, high: 1_160, baseDate, endDate: horizonEnd(baseDate, '1w'), publishedAt, rationale: 'ETS' });

describe.each(backends)('forecasts on $name', (backend) => {
  const store = storePerTest(backend);

  it('publishes a desk call once, with its audit entry; a second publication of the id writes nothing', async () => {
    expect(await store().hasNoForecasts()).toBe(true);
    const f = call('desk-1');
    const published = await store().publishForecast(f, { actor: ACTOR, now: NOW });
    expect(published.kind).toBe('published');
    expect(await store().getForecast('desk-1')).toEqual(f);
    expect(await store().hasNoForecasts()).toBe(false);
    const audit = await store().listAudit({ target: forecastTarget('desk-1') });
    expect(audit.entries.map((e) => [e.action, e.actor.uid, e.before, e.after])).toEqual([['forecast.publish', 'editor-1', null, f]]);

    expect(await store().publishForecast({ ...f, high: 9_999 }, { actor: ACTOR, now: NOW })).toEqual({ kind: 'exists' });
    expect((await store().getForecast('desk-1'))?.high).toBe(1_190);
    expect((await store().listAudit({ target: forecastTarget('desk-1') })).total).toBe(1);
  });

  it('lists a series\' forecasts oldest publication first, and only that series\'', async () => {
    const later = call('desk-2', { publishedAt: '2026-11-23T05:00:00.000Z', baseDate: '2026-11-23', endDate: '2026-11-30', supersedes: null });
    const correction = call('desk-3', { publishedAt: '2026-11-17T05:00:00.000Z', supersedes: 'desk-1', low: 1_160 });
    await store().publishForecast(later, { actor: ACTOR, now: NOW });
    await store().publishForecast(call('desk-1'), { actor: ACTOR, now: NOW });
    await store().publishForecast(correction, { actor: ACTOR, now: NOW });
    await store().publishForecast(call('desk-other', { seriesId: 'fx.usdinr', low: 88, high: 89, baseValue: 88.4 }), { actor: ACTOR, now: NOW });
    expect((await store().listForecasts(PP)).map((f) => f.id)).toEqual(['desk-1', 'desk-3', 'desk-2']);
    expect((await store().listForecasts(PP))[1]).toEqual(correction);
    expect((await store().listForecasts('fx.usdinr')).map((f) => f.id)).toEqual(['desk-other']);
    expect(await store().listForecasts('no.such.series')).toEqual([]);
    expect(await store().getForecast('no-such')).toBeNull();
  });

  it('adds baselines where new; the same baseline again writes nothing, and a desk call is never rewritten', async () => {
    const first = [baseline('2026-11-16', '2026-11-16T12:30:00.000Z'), baseline('2026-11-17', '2026-11-17T12:30:00.000Z')];
    expect(await store().addForecasts(first)).toBe(2);
    const again = [first[0]!, baseline('2026-11-18', '2026-11-18T12:30:00.000Z')];
    expect(await store().addForecasts(again)).toBe(1);
    const listed = await store().listForecasts(PP);
    expect(listed.map((f) => f.id)).toEqual(['2026-11-16', '2026-11-17', '2026-11-18'].map((d) => `baseline.${PP}.1w.${d}`));
    expect(listed[0]!.high).toBe(1_160);
    await store().addForecasts([call('desk-seed')]);
    expect(await store().addForecasts([call('desk-seed', { high: 2_000, baseValue: 1_150 })])).toBe(0);
    expect((await store().getForecast('desk-seed'))?.high).toBe(1_190);
  });

  it('replaces an unscored baseline made again from a corrected base price; a scored one stays as it was', async () => {
    const open = baseline('2026-11-23', '2026-11-23T12:30:00.000Z');
    const matured = baseline('2026-11-09', '2026-11-09T12:30:00.000Z');
    await store().addForecasts([open, matured]);
    await store().putScores([{ forecastId: matured.id, seriesId: PP, revision: 1, scoredAt: '2026-11-17T06:00:00.000Z', actual: { date: '2026-11-16', value: 1_150 }, outcome: { insideRange: true, actualDirection: 'flat', directionRight: true, absPctError: 0.9 }, earlier: [] }]);
    const corrected = (f: Forecast): Forecast => ({ ...f, baseValue: 1_150, low: 1_130, high: 1_170 });
    expect(await store().addForecasts([corrected(open), corrected(matured)])).toBe(1);
    expect(await store().getForecast(open.id)).toEqual(corrected(open));
    expect(await store().getForecast(matured.id)).toEqual(matured);
  });

  it('keeps one score per forecast: a re-score replaces it, its earlier revision kept on the record', async () => {
    const f = call('desk-1');
    await store().publishForecast(f, { actor: ACTOR, now: NOW });
    const first = scoreFor(f, 'weekly', [{ date: '2026-11-23', value: 1_170 }], '2026-11-24', null, NOW)!;
    expect(await store().putScores([scoreRecordOf(first, PP)])).toBe(1);
    expect(await store().listScores(PP)).toEqual([{ ...first, seriesId: PP }]);
    const corrected = scoreFor(f, 'weekly', [{ date: '2026-11-23', value: 1_210 }], '2026-11-24', first, new Date('2026-11-25T06:00:00.000Z'))!;
    expect(corrected.revision).toBe(2);
    await store().putScores([scoreRecordOf(corrected, PP)]);
    const [kept] = await store().listScores(PP);
    expect(kept).toEqual({ ...corrected, seriesId: PP });
    expect(kept!.earlier).toEqual([{ scoredAt: first.scoredAt, actual: first.actual, outcome: first.outcome }]);
    expect(kept!.outcome?.insideRange).toBe(false);
    expect(await store().listScores('fx.usdinr')).toEqual([]);
  });

  it('writes more forecasts and scores than one transaction holds', async () => {
    const many: Forecast[] = [];
    for (let i = 0; i < 450; i++) {
      const day = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
      many.push(baseline(day, `${day}T12:30:00.000Z`));
    }
    expect(await store().addForecasts(many)).toBe(450);
    const scores: ScoreRecord[] = many.map((f) => ({ forecastId: f.id, seriesId: PP, revision: 1, scoredAt: NOW.toISOString(), actual: null, outcome: null, earlier: [] }));
    expect(await store().putScores(scores)).toBe(450);
    expect(await store().listForecasts(PP)).toHaveLength(450);
    expect(await store().listScores(PP)).toHaveLength(450);
  }, 120_000);

  it('refuses a forecast or score no store may hold, writing nothing', async () => {
    await expect(attempt(() => store().publishForecast(call('bad', { low: 1_200, high: 1_100 }), { actor: ACTOR, now: NOW }))).rejects.toThrow(/low must be below high/);
    await expect(attempt(() => store().addForecasts([baseline('2026-11-16', '2026-11-16T12:30:00.000Z'), call('a/b')]))).rejects.toThrow(/not a forecast id/);
    await expect(attempt(() => store().addForecasts([call('nan', { high: Number.NaN })]))).rejects.toThrow(/finite/);
    await expect(attempt(() => store().putScores([{ forecastId: 'x', seriesId: PP, revision: 0, scoredAt: NOW.toISOString(), actual: null, outcome: null, earlier: [] }]))).rejects.toThrow(/revision/);
    expect(await store().hasNoForecasts()).toBe(true);
    expect(await store().listScores(PP)).toEqual([]);
  });

  it('moves forecasts and scores as they are (store:copy, backups), idempotently', async () => {
    const f = call('desk-1');
    await store().publishForecast(f, { actor: ACTOR, now: NOW });
    await store().addForecasts([baseline('2026-11-16', '2026-11-16T12:30:00.000Z')]);
    const score = scoreRecordOf(scoreFor(f, 'weekly', [{ date: '2026-11-23', value: 1_170 }], '2026-11-24', null, NOW)!, PP);
    await store().putScores([score]);
    const forecasts: Forecast[] = [];
    for await (const page of store().exportRecords('forecasts')) forecasts.push(...page);
    const scores: ScoreRecord[] = [];
    for await (const page of store().exportRecords('scores')) scores.push(...page);
    expect(forecasts.map((x) => x.id).toSorted()).toEqual([`baseline.${PP}.1w.2026-11-16`, 'desk-1']);
    expect(scores).toEqual([score]);

    const target = await backend.open();
    try {
      expect(await target.importRecords('forecasts', forecasts)).toBe(2);
      expect(await target.importRecords('forecasts', forecasts)).toBe(2);
      expect(await target.importRecords('scores', scores)).toBe(1);
      expect(await target.listForecasts(PP)).toEqual(await store().listForecasts(PP));
      expect(await target.listScores(PP)).toEqual([score]);
      await expect(attempt(() => target.importRecords('forecasts', [{ ...f, seriesId: '' }]))).rejects.toThrow(/no series/);
    } finally {
      await target.close();
    }
  });
});
