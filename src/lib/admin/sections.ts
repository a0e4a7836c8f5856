/** The admin area's sections, in the order of its sub-navigation. Add a row to add a section. */

export interface AdminSection {
  readonly href: string;
  readonly label: string;
  readonly description: string;
}

export const adminSections: readonly AdminSection[] = [
  { href: '/admin', label: 'Dashboard', description: 'Accounts, orders and the latest admin changes.' },
  { href: '/admin/prices', label: 'Prices', description: 'See and edit the points of a series; import a CSV file.' },
  { href: '/admin/producer-prices', label: 'Producer prices', description: 'A producer’s new list price (the revision is worked out), corrections, and a CSV import.' },
  { href: '/admin/markets', label: 'City-wise and offers', description: 'Edit a city’s sheet for a date and a country’s international offers.' },
  { href: '/admin/posts', label: 'Posts', description: 'The newsroom: write, preview, schedule, publish and unpublish posts.' },
  { href: '/admin/forecasts', label: 'Forecasts', description: 'The desk’s calls: publish a forecast or a correction; see how past calls scored.' },
  { href: '/admin/banners', label: 'Banners', description: 'The home page carousel: add, order and remove banners.' },
  { href: '/admin/outbox', label: 'Outbox', description: 'The messages the site has written to the local mail outbox.' },
  { href: '/admin/whatsapp', label: 'WhatsApp sandbox', description: 'Without a WhatsApp Business account: the outgoing messages, and a phone to write to the site as a subscriber.' },
  { href: '/admin/users', label: 'Users and plans', description: 'Find a user; see their record and payments; set the role; grant, extend or revoke a plan.' },
  { href: '/admin/audit', label: 'Audit log', description: 'Every admin change: who, when, what, old → new.' },
];

/** The section a path belongs to (the longest matching prefix), for the sub-navigation's current mark. */
export function currentSection(pathname: string): AdminSection | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return [...adminSections]
    .sort((a, b) => b.href.length - a.href.length)
    .find((s) => path === s.href || path.startsWith(`${s.href}/`));
}

/** "22 Nov 2026, 16:05 IST": an instant as an Indian administrator reads it; the text itself when unparsable. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const text = new Intl.DateTimeFormat('en-IN', {
    timeZone: 'Asia/Kolkata',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(t));
  return `${text} IST`;
}

/** Page links of a paged list: 1-based page, total pages (at least 1). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}
