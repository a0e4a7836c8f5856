import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isoDateOf,
  monthName,
  ordinal,
  parseDashedDate,
  parseIsoDate,
  parseSlashedDate,
  toDashedDate,
  toDisplayDate,
  toDisplayDateTime,
  toSlashedDate,
} from '../../src/lib/dates.ts';

describe('date forms', () => {
  it('formats ISO dates as DD-MM-YYYY and dd/mm/yyyy with zero padding', () => {
    expect(toDashedDate('2025-01-05')).toBe('05-01-2025');
    expect(toSlashedDate('2025-01-05')).toBe('05/01/2025');
    expect(toSlashedDate('2024-12-31')).toBe('31/12/2024');
  });

  it('parses each form back to ISO', () => {
    expect(parseDashedDate('05-01-2025')).toBe('2025-01-05');
    expect(parseSlashedDate('31/12/2024')).toBe('2024-12-31');
    expect(parseIsoDate('2024-02-29')).toBe('2024-02-29');
  });

  it.each(['2023-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '25-01-05', '2025-1-5', '', 'yesterday'])(
    'rejects %j as an ISO date',
    (text) => expect(parseIsoDate(text)).toBeNull(),
  );

  it.each(['31-04-2025', '1-1-2025', '01/01/2025', '29-02-2023', '00-01-2025'])('rejects %j as DD-MM-YYYY', (text) =>
    expect(parseDashedDate(text)).toBeNull(),
  );

  it('refuses to format what is not an ISO date', () => {
    expect(() => toDashedDate('05-01-2025')).toThrow(RangeError);
  });
});

describe('display dates with ordinal days', () => {
  it.each([
    [1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [11, '11th'], [12, '12th'], [13, '13th'],
    [21, '21st'], [22, '22nd'], [23, '23rd'], [30, '30th'], [31, '31st'], [111, '111th'], [101, '101st'],
  ])('%i → %s', (n, expected) => expect(ordinal(n)).toBe(expected));

  it('renders day, short month and year', () => {
    expect(toDisplayDate('2025-01-01')).toBe('1st Jan 2025');
    expect(toDisplayDate('2025-03-22')).toBe('22nd Mar 2025');
    expect(toDisplayDate('2024-12-13')).toBe('13th Dec 2024');
  });
});

describe('calendar arithmetic', () => {
  it('counts whole days across months, years and leap days', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2024-12-31', '2025-01-01')).toBe(1);
    expect(daysBetween('2025-01-02', '2025-01-01')).toBe(-1);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
  });

  it("takes today's date in India, not UTC", () => {
    // 20:00 UTC on 31 Dec is already 1 Jan in India (UTC+5:30).
    expect(isoDateOf(new Date('2025-12-31T20:00:00Z'))).toBe('2026-01-01');
    expect(isoDateOf(new Date('2025-12-31T18:00:00Z'))).toBe('2025-12-31');
  });

  it('answers each instant exactly although it keeps its last answer (midnight in India, other zones between)', () => {
    // India's midnight is 18:30:00.000 UTC: the last millisecond before it, then the first of it.
    expect(isoDateOf(new Date('2026-11-23T18:29:59.000Z'))).toBe('2026-11-23');
    expect(isoDateOf(new Date('2026-11-23T18:29:59.999Z'))).toBe('2026-11-23');
    expect(isoDateOf(new Date('2026-11-23T18:30:00.000Z'))).toBe('2026-11-24');
    expect(isoDateOf(new Date('2026-11-23T18:29:59.999Z'))).toBe('2026-11-23');
    // The same instant in another zone is answered by that zone's own last answer.
    expect(isoDateOf(new Date('2026-11-23T18:30:00.000Z'), 'UTC')).toBe('2026-11-23');
    expect(isoDateOf(new Date('2026-11-23T18:30:00.000Z'))).toBe('2026-11-24');
    // Kolkata's local mean time (+05:53:28 until 1854): its midnight is not on a whole minute.
    expect(isoDateOf(new Date('1850-01-01T18:06:31.500Z'), 'Asia/Kolkata')).toBe('1850-01-01');
    expect(isoDateOf(new Date('1850-01-01T18:06:32.000Z'), 'Asia/Kolkata')).toBe('1850-01-02');
    expect(() => isoDateOf(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('instants on India\'s clock', () => {
  it.each([
    ['2026-11-24T09:35:00Z', '24 Nov 2026, 15:05 IST'],
    ['2026-11-24T18:29:59Z', '24 Nov 2026, 23:59 IST'],
    // Past 18:30 UTC it is already the next day in India.
    ['2026-11-24T18:30:00Z', '25 Nov 2026, 00:00 IST'],
    ['2026-12-31T20:00:00Z', '1 Jan 2027, 01:30 IST'],
  ])('%s is %s', (instant, text) => expect(toDisplayDateTime(new Date(instant))).toBe(text));

  it('agrees with the calendar day of the same instant', () => {
    for (const instant of ['2026-03-01T18:29:00Z', '2026-03-01T18:30:00Z', '2024-02-28T20:00:00Z']) {
      const [y, m, d] = isoDateOf(new Date(instant)).split('-').map(Number) as [number, number, number];
      expect(toDisplayDateTime(new Date(instant)).startsWith(`${d} ${monthName(m)} ${y},`)).toBe(true);
    }
  });
});
