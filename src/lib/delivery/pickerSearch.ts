/**
 * The /alerts price picker's search (pure): a choice matches when every word typed starts a
 * word of its label, group or unit ("pp raf mum" finds "PP Raffia · Mumbai"), case and accents
 * aside; the listbox shows the matches grouped by family, in the list's order.
 */
import type { InstrumentChoice } from './view.ts';

const wordsOf = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9$₹]+/)
    .filter(Boolean);

/** A unit's currencies as traders type them: "usd inr" finds the rupee per US dollar. */
const currencyWords = (unit: string): string =>
  [unit.includes('₹') ? 'inr rs' : '', unit.includes('US$') ? 'usd' : '', unit.includes('RMB') ? 'cny yuan' : ''].join(' ');

export function matchChoices(choices: readonly InstrumentChoice[], query: string): InstrumentChoice[] {
  const wanted = wordsOf(query);
  if (wanted.length === 0) return [...choices];
  return choices.filter((choice) => {
    const words = wordsOf(`${choice.label} ${choice.group} ${choice.unit} ${currencyWords(choice.unit)}`);
    return wanted.every((w) => words.some((word) => word.startsWith(w)));
  });
}

/** The listbox's groups: each group once, where it first appears, with its items in order. */
export function groupChoices<T extends { readonly group: string }>(items: readonly T[]): { group: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.group, [...(groups.get(item.group) ?? []), item]);
  return [...groups].map(([group, list]) => ({ group, items: list }));
}
