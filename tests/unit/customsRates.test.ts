import { describe, expect, it } from 'vitest';
import { customsNotificationProblem, customsRateInForce, type CustomsRateNotification } from '../../src/lib/customsRates.ts';

const N = (effectiveFrom: string, importRate: number): CustomsRateNotification => ({ number: '67/2026-Customs (N.T.)', notifiedOn: effectiveFrom, effectiveFrom, importRate, exportRate: importRate - 1.7 });

describe('the customs exchange rate', () => {
  it('is the notification in force: the newest effective on or before the day, whatever the order given', () => {
    const list = [N('2026-11-20', 91.15), N('2026-10-16', 91.2), N('2026-11-06', 91.05)];
    expect(customsRateInForce(list, '2026-10-15')).toBeNull();
    expect(customsRateInForce(list, '2026-10-16')?.importRate).toBe(91.2);
    expect(customsRateInForce(list, '2026-11-19')?.importRate).toBe(91.05);
    expect(customsRateInForce(list, '2026-11-20')?.importRate).toBe(91.15);
    expect(customsRateInForce(list, '2027-01-01')?.importRate).toBe(91.15);
  });

  it('refuses a notification no store may hold', () => {
    const good = N('2026-11-20', 91.15);
    expect(customsNotificationProblem({ ...good, exportRate: 89.45 })).toBeNull();
    expect(customsNotificationProblem({ ...good, number: '67/2026' })).toMatch(/number/);
    expect(customsNotificationProblem({ ...good, notifiedOn: '2026-02-30' })).toMatch(/real/);
    expect(customsNotificationProblem({ ...good, notifiedOn: '2026-11-21' })).toMatch(/on or after/);
    expect(customsNotificationProblem({ ...good, importRate: 9.1 })).toMatch(/between 40 and 200/);
    expect(customsNotificationProblem({ ...good, exportRate: 89.455 })).toMatch(/two decimals/);
  });
});
