import {
  feedstocks,
  futureTrendProducts,
  globalBazaarCountries,
  indianBazaarSections,
  polymers,
  services,
  vipDelegationYears,
} from './catalog.ts';

/** A navigation item, in the legacy shape: id, section (label), slug (path), optional subItems. */
export interface NavItem {
  readonly id: string;
  readonly section: string;
  readonly slug: string;
  readonly subItems?: readonly NavItem[];
}

/** A VIP delegation event as the navigation needs it (the content collection supplies them). */
export interface DelegationRef {
  readonly year: number;
  readonly event: string;
  readonly title: string;
}

const leaf = (id: string, section: string, slug: string): NavItem => ({ id, section, slug });

/** Builds the whole navigation tree from the catalog plus the delegation events in content. */
export function buildNavigation(delegations: readonly DelegationRef[]): NavItem[] {
  return [
    {
      id: 'crude',
      section: 'Feedstock',
      slug: '/crude',
      subItems: feedstocks.map((f) => leaf(`crude-${f.slug}`, f.name, `/crude/${f.slug}`)),
    },
    {
      id: 'global-bazaar',
      section: 'Global Bazaar',
      slug: '/global-bazaar',
      subItems: globalBazaarCountries.map((c) => leaf(`global-bazaar-${c.slug}`, c.name, `/global-bazaar/${c.slug}`)),
    },
    {
      id: 'indian-bazaar',
      section: 'Indian Bazaar',
      slug: '/indian-bazaar',
      subItems: indianBazaarSections.map((s) => leaf(`indian-bazaar-${s.slug}`, s.name, `/indian-bazaar/${s.slug}`)),
    },
    {
      id: 'historical-data',
      section: 'Historical Data',
      slug: '/historical-data',
      subItems: polymers.map((p) => leaf(`historical-data-${p.slug}`, p.slug, `/historical-data/${p.slug}`)),
    },
    {
      id: 'graph',
      section: 'Graphs',
      slug: `/graph/${polymers[0]?.slug ?? 'PP'}`,
      subItems: polymers.map((p) => leaf(`graph-${p.slug}`, p.slug, `/graph/${p.slug}`)),
    },
    leaf('compare', 'Compare', '/compare'),
    {
      id: 'future-trend',
      section: 'Future Trend',
      slug: '/future-trends',
      subItems: futureTrendProducts.map((p) => leaf(`future-trend-${p.slug}`, p.name, `/future-trend/${p.slug}`)),
    },
    leaf('buy-sell', 'Buy / Sell', '/buy-sell'),
    leaf('plant-news', 'Plant News', '/plant-news'),
    {
      id: 'vip-delegations',
      section: 'VIP Delegations',
      slug: `/vip-delegations`,
      subItems: vipDelegationYears
        .toSorted((a, b) => b - a)
        .map((year) => ({
          id: `vip-delegations-${year}`,
          section: String(year),
          slug: `/vip-delegations/${year}`,
          subItems: delegations
            .filter((d) => d.year === year)
            .map((d) => leaf(`vip-delegations-${year}-${d.event}`, d.title, `/vip-delegations/${year}/${d.event}`)),
        })),
    },
    {
      id: 'services',
      section: 'Services',
      slug: '/services',
      subItems: services.map((s) => leaf(`services-${s.slug}`, s.name, `/services/${s.slug}`)),
    },
  ];
}
