/** Reads the markdown collections (VIP delegation events) in the orders screens list them. Posts: src/server/posts/read.ts. */
import { getCollection, type CollectionEntry } from 'astro:content';

export type Delegation = CollectionEntry<'vipDelegations'>;

export async function delegationsOfYear(year: number): Promise<Delegation[]> {
  return (await getCollection('vipDelegations', (d) => d.data.year === year)).toSorted((a, b) =>
    a.data.startDate.localeCompare(b.data.startDate),
  );
}

export async function findDelegation(year: number, event: string): Promise<Delegation | undefined> {
  return (await delegationsOfYear(year)).find((d) => d.data.event === event);
}
