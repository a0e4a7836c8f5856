/**
 * The post renderer (src/server/posts/render.ts): markdown with tables and links renders, and no
 * script, event handler or script URL survives, whatever the markdown or raw HTML tries.
 */
import { describe, expect, it } from 'vitest';
import { plainTextOf, renderPostHtml, withAbsoluteUrls, type SanitizedHtml } from '../../src/server/posts/render.ts';

/** What must never be in rendered HTML: checked on every tag (escaped text may say anything). */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<script/i);
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
    expect(tag).not.toMatch(/^<(iframe|object|embed|form|input|style|svg|math|base|meta|link|details)\b/i);
    expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
    expect(tag).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|vbscript|data)/i);
    expect(tag).not.toMatch(/\sstyle\s*=/i);
  }
}

describe('renderPostHtml', () => {
  it('renders the markdown the desk writes: headings, lists, tables, emphasis, links', () => {
    const html = renderPostHtml(['# Title', '', 'Some **bold** and *em*.', '', '- a', '- b', '', '| Grade | Price |', '|---|---|', '| PP raffia | Rs 104/kg |', '', '[calc](/indian-bazaar/importCalculation) and [site](https://example.com/x)'].join('\n'));
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<li>a</li>');
    expect(html).toMatch(/<table>[\s\S]*<td>PP raffia<\/td>/);
    expect(html).toContain('<a href="/indian-bazaar/importCalculation">calc</a>');
    expect(html).toContain('<a href="https://example.com/x" rel="noopener noreferrer nofollow">site</a>');
  });

  it.each([
    ['<script>alert(1)</script>'],
    ['<img src=x onerror=alert(1)>'],
    ['[x](javascript:alert(1))'],
    ['[x](JaVaScRiPt:alert(1))'],
    ['[x](  javascript:alert(1))'],
    ['[x](java&#115;cript:alert(1))'],
    ['[x](&#106;avascript:alert(1))'],
    ['<a href="javascript&colon;alert(1)">x</a>'],
    ['[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['[x](vbscript:msgbox(1))'],
    ['![x](javascript:alert(1))'],
    ['<svg onload=alert(1)>'],
    ['<iframe src="https://evil.example"></iframe>'],
    ['<a href="/ok" onclick="alert(1)">x</a>'],
    ['<p style="background:url(javascript:alert(1))">x</p>'],
    ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
    ['<details open ontoggle=alert(1)>'],
    ['<form action="https://evil.example"><input name=a></form>'],
    ['<scr<script>ipt>alert(1)</script>'],
    ['<<script>script>alert(1)//<</script>/script>'],
    ['<object data="javascript:alert(1)"></object>'],
    ['<base href="javascript:alert(1)//">'],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
    ['`<script>alert(1)</script>` in code'],
    ['    <img src=x onerror=alert(1)> indented code'],
    ['<img src="x" alt="a" onerror="alert(1)" />'],
    ['<IMG SRC=JaVaScRiPt:alert(1)>'],
    ['<a href="&#x6A;avascript:alert(1)">x</a>'],
    ['<div><img src=/x.png onmouseover=alert(1)></div>'],
  ])('%s renders inert', (markdown) => expectInert(renderPostHtml(markdown)));

  it('keeps a quoted price’s <data value> mark (the consistency check reads it), and nothing else on it', () => {
    const html = renderPostHtml('Raffia at <data value="historical.ppRaffia.mumbai@2026-11-18" onclick="alert(1)" class="x">₹119.00/kg</data> this week.\n\n| Grade | Price |\n|---|---|\n| Raffia | <data value="city.mumbai.ppRaffia@2026-11-18">₹120.00/kg</data> |');
    expect(html).toContain('<data value="historical.ppRaffia.mumbai@2026-11-18">₹119.00/kg</data>');
    expect(html).toContain('<td><data value="city.mumbai.ppRaffia@2026-11-18">₹120.00/kg</data></td>');
    expect(html).not.toMatch(/onclick|class="x"/);
  });

  it('keeps text that merely looks like HTML as text in code', () => {
    const html = renderPostHtml('`<script>alert(1)</script>`');
    expect(html).toContain('&lt;script&gt;');
  });

  it('keeps images from this site only', () => {
    expect(renderPostHtml('![chart](/news/images/a.webp)')).toContain('<img src="/news/images/a.webp" alt="chart" />');
    expect(renderPostHtml('![x](https://tracker.example/p.gif)')).not.toContain('tracker.example');
    expect(renderPostHtml('![x](//tracker.example/p.gif)')).not.toContain('tracker.example');
  });

  it('turns a heading 1 into a heading 2 (the page has the title as h1)', () => {
    expect(renderPostHtml('# A')).toBe('<h2>A</h2>\n');
  });
});

describe('absolute URLs (mail) and plain text', () => {
  const article = new URL('https://polyindex.example/news/a-post/');
  it.each([
    ['![c](/news/images/x-1200.webp)', 'src="https://polyindex.example/news/images/x-1200.webp"'],
    ['![c](images/x.webp)', 'src="https://polyindex.example/news/a-post/images/x.webp"'],
    ['[p](/news/other)', 'href="https://polyindex.example/news/other"'],
    ['[n](#part)', 'href="https://polyindex.example/news/a-post/#part"'],
    ['[q](?page=2)', 'href="https://polyindex.example/news/a-post/?page=2"'],
    ['[e](https://example.com/x)', 'href="https://example.com/x" rel="noopener noreferrer nofollow"'],
    ['[m](mailto:desk@polyindex.test)', 'href="mailto:desk@polyindex.test"'],
  ])('%s → %s', (markdown, expected) => {
    expect(withAbsoluteUrls(renderPostHtml(markdown), article)).toContain(expected);
  });

  it('drops a value that is no URL instead of failing the mail', () => {
    expect(withAbsoluteUrls('<p><a href="\\\\[">x</a><img src="\\\\[" alt="y" /></p>' as SanitizedHtml, article)).toBe('<p><a>x</a></p>');
  });

  it('stays inert and keeps foreign images out', () => {
    const html = withAbsoluteUrls(renderPostHtml('![x](https://evil.example/p.gif)\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))'), article);
    expectInert(html);
    expect(html).not.toContain('evil.example');
  });

  it('plain text drops tags, decodes entities and keeps paragraphs apart', () => {
    expect(plainTextOf(renderPostHtml('A & B < C\n\n- one\n- two\n\n<script>x()</script>'))).toBe('A & B < C\n\none\ntwo');
  });
});
