/**
 * The one hook after a price write has committed (admin form, CSV import, API): the alerts on
 * the instruments it moved are evaluated in the background, one write after another, so the
 * writer's answer never waits for mail or WhatsApp and a failure here never undoes the write.
 */
import { cityInstrumentId, instrumentsOfSeries } from '../../lib/delivery/instruments.ts';
import { evaluateAlerts, evaluateRevisionAlerts } from './alerts.ts';
import { deliveryDeps } from './index.ts';

let queue: Promise<unknown> = Promise.resolve();

/** Queues the evaluation; the returned promise settles when it has run (tests wait on it). */
export function afterPriceWrite(written: { readonly series?: readonly string[]; readonly cityPrices?: readonly { readonly city: string; readonly grade: string }[] }): Promise<void> {
  const ids = [...(written.series ?? []).flatMap((id) => instrumentsOfSeries(id).map((i) => i.id)), ...(written.cityPrices ?? []).map((r) => cityInstrumentId(r.city, r.grade))];
  const run = queue.then(async () => {
    if (ids.length === 0) return;
    try {
      await evaluateAlerts(await deliveryDeps(), ids);
    } catch (error) {
      console.error('[delivery] evaluating alerts failed:', error);
    }
  });
  queue = run;
  return run;
}

/** After the desk's producer list prices changed: revision alerts, in the same queue (never awaited by the writer). */
export function afterProducerPriceWrite(): Promise<void> {
  const run = queue.then(async () => {
    try {
      await evaluateRevisionAlerts(await deliveryDeps());
    } catch (error) {
      console.error('[delivery] evaluating revision alerts failed:', error);
    }
  });
  queue = run;
  return run;
}

/** Settles when every evaluation queued so far has run (tests). */
export const priceAlertsSettled = (): Promise<unknown> => queue;
