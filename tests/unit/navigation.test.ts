import { describe, expect, it } from 'vitest';
import { buildNavigation } from '../../src/lib/navigation.ts';
import { feedstocks, vipDelegationYears } from '../../src/lib/catalog.ts';

describe('navigation tree', () => {
  const nav = buildNavigation([
    { year: 2019, event: 'k-show', title: 'K 2019' },
    { year: 2019, event: 'chinaplas', title: 'Chinaplas 2019' },
  ]);

  it('has id, section and slug on every item, with unique ids', () => {
    const ids: string[] = [];
    const walk = (items: readonly (typeof nav)[number][]) =>
      items.forEach((item) => {
        expect(item.id).toBeTruthy();
        expect(item.section).toBeTruthy();
        expect(item.slug.startsWith('/')).toBe(true);
        ids.push(item.id);
        if (item.subItems) walk(item.subItems);
      });
    walk(nav);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('builds the feedstock menu from the catalog', () => {
    const crude = nav.find((i) => i.id === 'crude');
    expect(crude?.subItems?.map((s) => s.slug)).toEqual(feedstocks.map((f) => `/crude/${f.slug}`));
  });

  it('links every delegation event under its year, every year present', () => {
    const vip = nav.find((i) => i.id === 'vip-delegations');
    expect(vip?.subItems?.map((y) => Number(y.section)).sort()).toEqual([...vipDelegationYears]);
    const y2019 = vip?.subItems?.find((y) => y.section === '2019');
    expect(y2019?.subItems?.map((e) => e.slug)).toEqual(['/vip-delegations/2019/k-show', '/vip-delegations/2019/chinaplas']);
  });
});
