import { describe, expect, it } from 'vitest';
import { instruments } from '../../src/lib/delivery/instruments.ts';
import { groupChoices, matchChoices } from '../../src/lib/delivery/pickerSearch.ts';

const choices = instruments.map((i) => ({ id: i.id, label: i.label, unit: i.unit, group: i.group }));
const labels = (query: string) => matchChoices(choices, query).map((c) => c.label);

describe('the price picker search', () => {
  it.each([
    ['pp raf mum', ['PP Raffia · Mumbai ex-works (incl. GST)', 'PP Raffia · Mumbai']],
    ['NAPHTHA', ['Naphtha · Japan', 'Naphtha · China']],
    ['city-wise delhi hdpe film', ['HDPE Film · Delhi']],
    ['dollar', ['US dollar to Indian rupee']],
    ['inr/usd', ['US dollar to Indian rupee']],
  ])('“%s” finds %j', (query, expected) => expect(labels(query)).toEqual(expected));

  it('finds nothing for words no price has, and everything for no words', () => {
    expect(labels('teak wood')).toEqual([]);
    expect(matchChoices(choices, '  ')).toHaveLength(choices.length);
  });

  it('groups the results by family, each group once, in the catalog order', () => {
    const groups = groupChoices(matchChoices(choices, 'raffia'));
    expect(groups.map((g) => g.group)).toEqual(['Mumbai ex-works', 'CIF Nhava Sheva', ...['Ahmedabad', 'Mumbai', 'Delhi', 'Kolkata', 'Bangalore', 'Pune', 'Indore'].map((c) => `City-wise: ${c}`)]);
    expect(groups[0]!.items.map((c) => c.label)).toEqual(['PP Raffia · Mumbai ex-works (incl. GST)', 'HDPE Raffia · Mumbai ex-works (incl. GST)']);
  });
});
