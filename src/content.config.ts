import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { METHODOLOGY_FAMILIES } from './lib/basis.ts';
import { services, vipDelegationYears } from './lib/catalog.ts';
import { seedPostSchema } from './server/posts/seed.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'dates are ISO YYYY-MM-DD');

/** Ids are file names without folders, so `/news/{id}` URLs stay short and stable. */
const basenameId = ({ entry }: { entry: string }): string =>
  entry
    .split('/')
    .at(-1)!
    .replace(/\.(md|mdx)$/, '');

/**
 * The demo posts (buy/sell leads, plant news, bazaar posts, outlooks, blogs, tweets): seed data
 * only. Posts live in the store and reach pages through the live collection of
 * src/live.config.ts; src/server/posts/seed.ts imports these on first start.
 */
const newsSeed = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/news', generateId: basenameId }),
  schema: seedPostSchema,
});

const vipDelegations = defineCollection({
  loader: glob({ pattern: '**/*.md', base: './src/content/vip-delegations', generateId: basenameId }),
  schema: ({ image }) => z.object({
    year: z.number().int().refine((y) => vipDelegationYears.includes(y), 'year outside 2017–2025'),
    /** URL segment: /vip-delegations/{year}/{event} */
    event: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'event is a lower-case slug'),
    title: z.string().min(5),
    country: z.string(),
    city: z.string(),
    startDate: isoDate,
    endDate: isoDate,
    summary: z.string().min(20),
    /** Photos of the event (astro:assets resizes them; quality 75). */
    photos: z.array(z.object({ src: image(), alt: z.string().min(3) })).default([]),
  }),
});

const servicePages = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/services' }),
  schema: z.object({
    slug: z.enum(services.map((s) => s.slug) as [string, ...string[]]),
    title: z.string(),
    summary: z.string(),
    order: z.number().int(),
  }),
});

const legal = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/legal' }),
  schema: z.object({
    title: z.string(),
    updated: isoDate,
    summary: z.string(),
  }),
});

/**
 * The prose of the methodology pages (/methodology and one page per family of prices): what is
 * assessed, when, from which inputs, how corrections are made. The facts of every price (its
 * basis) come from the catalog, not from here.
 */
const methodology = defineCollection({
  loader: glob({ pattern: '*.md', base: './src/content/methodology' }),
  schema: z.object({
    family: z.enum(['overview', ...METHODOLOGY_FAMILIES.map((f) => f.slug)] as [string, ...string[]]),
    title: z.string(),
    /** The page's description (meta and lead paragraph). */
    description: z.string().min(50).max(160),
    updated: isoDate,
  }),
});

/** Carousel banners of the home page (the seed; the admin area manages them in the store). */
const banners = defineCollection({
  loader: file('./src/content/banners.json'),
  schema: z.object({
    id: z.string(),
    title: z.string(),
    subtitle: z.string(),
    href: z.string().startsWith('/'),
    image: z.string().startsWith('/'),
    alt: z.string().min(3),
    order: z.number().int(),
  }),
});

/** Trade bodies and partners shown in the home page's partner carousel (fictional demo partners). */
const partners = defineCollection({
  loader: file('./src/content/partners.json'),
  schema: z.object({
    id: z.string(),
    name: z.string().min(3),
    logo: z.string().startsWith('/'),
    order: z.number().int(),
  }),
});

export const collections = { newsSeed, vipDelegations, services: servicePages, legal, banners, partners, methodology };
