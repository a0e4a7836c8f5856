import type { APIContext } from 'astro';
import { getCollection } from 'astro:content';
import { describe, expect, it } from 'vitest';
import { newsTypes } from '../../src/lib/catalog.ts';
import { GET as robots } from '../../src/pages/robots.txt.ts';
import { GET as rssFeed } from '../../src/pages/rss.xml.ts';
import { articleJsonLd, articleUrl, jsonLdScript, NEWS_PAGE_SIZE, newsListPages, newsListPath, newsTypeLabel, teaserHtml } from '../../src/server/news.ts';

const site = new URL('https://polyindex.example');
const all = await getCollection('news');
if (all.length === 0) throw new Error('the news collection is empty: the content data store was not loaded');
const premium = all.filter((p) => p.data.access === 'premium');
const open = all.filter((p) => p.data.access === 'public');

describe('news list pages', () => {
  it('cover every post once, newest first, at most one page size each', async () => {
    const lists = await newsListPages();
    const allPages = lists.filter((l) => l.type === null);
    const ids = allPages.flatMap((l) => l.posts.map((p) => p.id));
    expect(ids.toSorted()).toEqual(all.map((p) => p.id).toSorted());
    const dates = allPages.flatMap((l) => l.posts.map((p) => p.data.date));
    expect(dates).toEqual(dates.toSorted().reverse());
    for (const list of lists) expect(list.posts.length).toBeLessThanOrEqual(NEWS_PAGE_SIZE);
    expect(allPages.map((l) => l.page)).toEqual(Array.from({ length: Math.ceil(all.length / NEWS_PAGE_SIZE) }, (_, i) => i + 1));
    for (const type of newsTypes) {
      const ofType = lists.filter((l) => l.type === type).flatMap((l) => l.posts);
      expect(ofType.every((p) => p.data.type === type)).toBe(true);
      expect(ofType).toHaveLength(all.filter((p) => p.data.type === type).length);
    }
  });

  it.each([
    [null, 1, '/news'], [null, 2, '/news/page/2'], ['daily-tweet', 1, '/news/type/daily-tweet'],
    ['future-trend/PP', 3, '/news/type/future-trend/PP/page/3'],
  ] as const)('%s page %i is at %s', (type, page, path) => expect(newsListPath(type, page)).toBe(path));

  it('labels types from the catalog', () => {
    expect(newsTypeLabel('future-trend/nylon-6-nylon-66')).toBe('Future trend: Nylon 6 / Nylon 66');
    expect(newsTypeLabel('rateRevision')).toBe('Rate revisions');
    expect(newsTypeLabel('daily-tweet')).toBe('Daily tweets');
  });
});

describe('premium posts', () => {
  it('exist in the demo content', () => expect(premium.length).toBeGreaterThan(0));

  it.each(premium.map((p) => [p.id, p] as const))('%s: the teaser is the first paragraph only', (_id, post) => {
    const teaser = teaserHtml(post);
    const html = post.rendered?.html ?? '';
    expect(teaser).toMatch(/^<p>[\s\S]*<\/p>$/);
    expect(html.startsWith(teaser) || html.includes(teaser)).toBe(true);
    expect(teaser.length).toBeLessThan(html.length / 2);
    expect((teaser.match(/<p>/g) ?? []).length).toBe(1);
  });
});

describe('JSON-LD NewsArticle', () => {
  it('marks a premium post as not free, with the paywalled part', () => {
    const ld = articleJsonLd(premium[0]!, { site, imageUrl: 'https://polyindex.example/card.png' });
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: premium[0]!.data.title,
      datePublished: premium[0]!.data.date,
      isAccessibleForFree: false,
      hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false, cssSelector: '.paywalled' },
      url: `https://polyindex.example/news/${premium[0]!.id}/`,
      image: ['https://polyindex.example/card.png'],
    });
  });

  it('marks a public post as free, without hasPart', () => {
    const ld = articleJsonLd(open[0]!, { site });
    expect(ld['isAccessibleForFree']).toBe(true);
    expect(ld['hasPart']).toBeUndefined();
    expect(ld['url']).toBe(articleUrl(open[0]!, site));
  });

  it('serialises so that no text can close the script element, and parses back', () => {
    const data = { headline: 'a </script><script>alert(1)</script>' };
    const text = jsonLdScript(data);
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toEqual(data);
  });
});

describe('/rss.xml and /robots.txt', () => {
  const context = { site, url: new URL('/rss.xml', site) } as unknown as APIContext;

  it('lists posts with absolute canonical links; premium items carry only their summary', async () => {
    const response = await rssFeed(context);
    const xml = await response.text();
    expect(xml.startsWith('<?xml')).toBe(true);
    const items = xml.split('<item>').slice(1);
    expect(items.length).toBe(Math.min(50, all.length));
    for (const item of items) {
      const link = /<link>([^<]+)<\/link>/.exec(item)?.[1] ?? '';
      expect(link).toMatch(/^https:\/\/polyindex\.example\/news\/[\w-]+\/$/);
      const post = all.find((p) => link.endsWith(`/news/${p.id}/`))!;
      if (post.data.access === 'premium') {
        expect(item).not.toContain('<content:encoded>');
        expect(item).toContain('<category>Premium</category>');
      } else {
        expect(item).toContain('<content:encoded>');
      }
    }
    for (const post of premium) {
      const lastParagraph = /<p>([^<]{40,})<\/p>\s*$/.exec(post.rendered?.html ?? '')?.[1];
      if (lastParagraph) expect(xml).not.toContain(lastParagraph.slice(0, 40));
    }
  });

  it('robots.txt points crawlers at the sitemap and away from the API', async () => {
    const text = await (await robots({ site, url: new URL('/robots.txt', site) } as unknown as APIContext)).text();
    expect(text).toContain('Sitemap: https://polyindex.example/sitemap-index.xml');
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toMatch(/^User-agent: \*$/m);
  });
});
