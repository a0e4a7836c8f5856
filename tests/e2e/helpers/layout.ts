/**
 * The layout check (issue 22): looks at a page as a person does, in the browser, and lists
 * everything wrong with it at once rather than the first thing:
 *
 * - `sideways-scroll`: the page is wider than the window;
 * - `small-text`: visible text rendered under 11 CSS px, SVG text included (its computed
 *   font-size × the scale its SVG is drawn at, i.e. what reaches the screen);
 * - `too-wide`: an element (or a run of text) wider than its container where no scroll
 *   container takes the overflow: it pokes out of its box, or is cut off;
 * - `clipped-heading` / `clipped-text`: text partly cut away by its box or an ancestor's (what
 *   lies above or left of a scroll container's start is cut too: no scrolling reaches it);
 * - `label-apart`: a checkbox or radio button whose label's text starts far from it (a control
 *   stretched to the card's width draws its mark mid-way, its label at the edge);
 * - `header-height`: on a phone, the site header ends more than 72 px below the top;
 * - `header-wraps`: something in the header (the brand, a pill, a button) breaks onto a second line.
 *
 * `measureLayout` runs inside the page (Playwright serialises it), so it uses nothing from
 * outside its own body.
 */
import type { Page } from '@playwright/test';

export const MIN_TEXT_PX = 11;
export const PHONE_HEADER_MAX_PX = 72;

export type LayoutCheck = 'sideways-scroll' | 'small-text' | 'too-wide' | 'clipped-heading' | 'clipped-text' | 'label-apart' | 'header-height' | 'header-wraps';

export interface LayoutFinding {
  readonly check: LayoutCheck;
  /** Where: a short path of the element (tag, id, test id, classes), and its text when it helps. */
  readonly element: string;
  /** What was measured, in CSS px. */
  readonly measurement: string;
  /** How many elements gave this same finding (same place, same measure). */
  readonly count: number;
}

export interface MeasureOptions {
  readonly minTextPx: number;
  /** The phone header's limit, or null at a desktop size. */
  readonly headerMaxPx: number | null;
}

/** Runs in the browser: every layout finding on the page as it stands. */
export function measureLayout(options: MeasureOptions): LayoutFinding[] {
  type Box = { left: number; top: number; right: number; bottom: number };
  const raw: { check: LayoutCheck; element: string; measurement: string }[] = [];
  const px = (n: number) => `${Math.round(n * 10) / 10} px`;
  const root = document.scrollingElement ?? document.documentElement;
  const viewportWidth = root.clientWidth;
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element): CSSStyleDeclaration => {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = getComputedStyle(el)));
    return s;
  };
  const scrolls = (value: string) => value === 'auto' || value === 'scroll';
  const clips = (value: string) => value === 'hidden' || value === 'clip';
  const shown = (el: Element): boolean => el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });

  const describe = (el: Element): string => {
    const parts: string[] = [];
    let node: Element | null = el;
    for (let depth = 0; node && node !== document.body && depth < 4; depth++, node = node.parentElement) {
      let part = node.tagName.toLowerCase();
      if (node.id) part += `#${node.id}`;
      const testId = node.getAttribute('data-testid');
      if (testId) part += `[data-testid=${testId}]`;
      const classes = [...node.classList].slice(0, 2);
      if (classes.length > 0) part += `.${classes.join('.')}`;
      parts.unshift(part);
      if (node.id || testId) break;
    }
    return parts.join(' > ');
  };
  const sample = (text: string): string => {
    const words = text.replace(/\s+/g, ' ').trim();
    return words.length > 40 ? `${words.slice(0, 39)}…` : words;
  };

  /**
   * Where an element can be seen: inside every ancestor that clips it (overflow hidden/clip,
   * a zero `clip`), past the start of every scroll container (what lies above or left of it
   * cannot be scrolled to), and not above or left of the page. Only an absolutely positioned
   * element's containing blocks clip it.
   */
  const reaches = new Map<Element, Box>();
  const contentReaches = new Map<Element, Box>();
  /** Where the element's own box can be seen (`content`: where its content can, inside its own clipping too). */
  const reach = (el: Element, content = false): Box => {
    const known = (content ? contentReaches : reaches).get(el);
    if (known) return known;
    const box: Box = { left: -window.scrollX, top: -window.scrollY, right: Infinity, bottom: Infinity };
    let position = content ? 'static' : style(el).position;
    if (position !== 'fixed') {
      for (let node = content ? el : el.parentElement; node && node !== document.body && node !== document.documentElement; node = node.parentElement) {
        const s = style(node);
        const containing = s.position !== 'static' || s.transform !== 'none';
        if (position === 'absolute' && !containing) continue;
        if (s.position === 'absolute' && /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(s.getPropertyValue('clip'))) return { left: 0, top: 0, right: 0, bottom: 0 };
        const r = node.getBoundingClientRect();
        const inner = { left: r.left + parseFloat(s.borderLeftWidth), top: r.top + parseFloat(s.borderTopWidth), right: r.right - parseFloat(s.borderRightWidth), bottom: r.bottom - parseFloat(s.borderBottomWidth) };
        if (clips(s.overflowX)) Object.assign(box, { left: Math.max(box.left, inner.left), right: Math.min(box.right, inner.right) });
        else if (scrolls(s.overflowX)) box.left = Math.max(box.left, inner.left - node.scrollLeft);
        if (clips(s.overflowY)) Object.assign(box, { top: Math.max(box.top, inner.top), bottom: Math.min(box.bottom, inner.bottom) });
        else if (scrolls(s.overflowY)) box.top = Math.max(box.top, inner.top - node.scrollTop);
        if (s.position === 'fixed') break;
        position = s.position === 'absolute' ? 'absolute' : 'static';
      }
    }
    (content ? contentReaches : reaches).set(el, box);
    return box;
  };
  const seen = (r: DOMRect, box: Box): number => {
    const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
    const h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
    return w > 0 && h > 0 ? w * h : 0;
  };
  /** The nearest ancestor that scrolls sideways: content wider than its box is reached by scrolling it. */
  const scrollerAbove = (el: Element): Element | null => {
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) if (scrolls(style(node).overflowX)) return node;
    return null;
  };
  /** Text lines of an element: its text's boxes, grouped by line (an icon beside the text is no line). */
  const lineCount = (el: Element): number => {
    const boxes: DOMRect[] = [];
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const r = document.createRange();
    for (let t = texts.nextNode(); t; t = texts.nextNode()) {
      if (!/\S/.test(t.textContent ?? '') || t.parentElement?.closest('svg')) continue;
      r.selectNodeContents(t);
      boxes.push(...[...r.getClientRects()].filter((b) => b.width >= 1 && b.height >= 1));
    }
    boxes.sort((a, b) => a.top - b.top);
    let lines = 0;
    let bottom = -Infinity;
    for (const b of boxes) {
      if (b.top >= bottom - 1) lines++;
      bottom = Math.max(b.top >= bottom - 1 ? -Infinity : bottom, b.bottom);
    }
    return lines;
  };

  // 1. The page scrolls sideways.
  if (root.scrollWidth > viewportWidth + 1) {
    raw.push({ check: 'sideways-scroll', element: 'page', measurement: `the page is ${px(root.scrollWidth)} wide in a ${px(viewportWidth)} window` });
  }

  // 2. Text: its size as rendered, cut by a box, or running out of its block.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const overflowingBlocks = new Set<Element>();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (!/\S/.test(text)) continue;
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, noscript, template, title, option, textarea')) continue;
    if (!shown(parent)) continue;
    range.selectNodeContents(node);
    const fontSize = parseFloat(style(parent).fontSize);
    // A text box is its font's content area, taller than the letters when the line height is
    // tight: what can be cut is the em box (font-size tall) in its middle, where the ink is.
    const rects = [...range.getClientRects()]
      .filter((r) => r.width >= 1 && r.height >= 1)
      .map((r) => (parent instanceof SVGElement || r.height <= fontSize ? r : new DOMRect(r.left, r.top + (r.height - fontSize) / 2, r.width, fontSize)));
    const box = reach(parent, true);
    const visible = rects.map((r) => seen(r, box));
    if (visible.every((area) => area < 1)) continue;
    const where = `${describe(parent)} “${sample(text)}”`;

    let rendered = fontSize;
    let how = '';
    if (parent instanceof SVGElement) {
      const graphic = (parent.closest('text, tspan') ?? parent) as SVGGraphicsElement;
      const matrix = graphic.getScreenCTM?.();
      if (matrix) {
        const scale = Math.sqrt(Math.abs(matrix.a * matrix.d - matrix.b * matrix.c));
        rendered = fontSize * scale;
        how = ` (${px(fontSize)} × SVG scale ${Math.round(scale * 100) / 100})`;
      }
    }
    if (rendered < options.minTextPx - 0.05) raw.push({ check: 'small-text', element: where, measurement: `${px(rendered)}${how} < ${options.minTextPx} px` });

    const cut = rects.findIndex((r, i) => visible[i]! < r.width * r.height - 1);
    if (cut >= 0) {
      const r = rects[cut]!;
      const heading = parent.closest('h1, h2, h3, h4, h5, h6, [role="heading"]');
      raw.push({
        check: heading ? 'clipped-heading' : 'clipped-text',
        element: where,
        measurement: `${px(r.width)} × ${px(r.height)} of text, ${Math.round((1 - visible[cut]! / (r.width * r.height)) * 100)} % of it cut away`,
      });
      continue;
    }

    // Text wider than the block that holds it (a long word, `nowrap`), unless it scrolls.
    if (parent instanceof SVGElement) continue;
    let block: Element = parent;
    while (/^(inline|contents)/.test(style(block).display) && block.parentElement) block = block.parentElement;
    if (overflowingBlocks.has(block)) continue;
    const b = block.getBoundingClientRect();
    const past = Math.max(Math.max(...rects.map((r) => r.right)) - b.right, b.left - Math.min(...rects.map((r) => r.left)));
    if (past > 1 && !scrolls(style(block).overflowX) && !scrollerAbove(block)) {
      overflowingBlocks.add(block);
      raw.push({ check: 'too-wide', element: `${describe(block)} text “${sample(text)}”`, measurement: `text runs ${px(past)} past its ${px(b.width)} box` });
    }
  }

  // 3. Elements wider than their container where no scroll container takes the overflow.
  const reported: Element[] = [];
  for (const el of document.body.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    if ((el.closest('svg') && tag !== 'svg') || ['script', 'style', 'br', 'option', 'template', 'source', 'track'].includes(tag)) continue;
    if (!shown(el)) continue;
    const s = style(el);
    if (s.position === 'fixed' || s.display === 'contents') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const box = reach(el);
    const visible = seen(r, box);
    if (visible < 1) continue;
    let container = s.position === 'absolute' ? (el as HTMLElement).offsetParent : el.parentElement;
    while (container && style(container).display === 'contents') container = container.parentElement;
    if (!container || container === document.documentElement) continue;
    const c = container.getBoundingClientRect();
    const cs = style(container);
    const inner = { left: c.left + parseFloat(cs.borderLeftWidth), right: c.right - parseFloat(cs.borderRightWidth) };
    const past = Math.max(r.right - inner.right, inner.left - r.left);
    if (past <= 1 || reported.some((outer) => outer.contains(el))) continue;
    const cutOff = r.left < box.left - 1 || r.right > box.right + 1;
    if (!cutOff && scrollerAbove(el)) continue;
    reported.push(el);
    raw.push({
      check: 'too-wide',
      element: describe(el),
      measurement: `${px(r.width)} wide, ${px(past)} past its ${px(inner.right - inner.left)} container (${describe(container)})${cutOff ? ', cut off' : ''}`,
    });
  }

  // 4. Headings cut by their own box (an ellipsis, a line clamp, a fixed height).
  for (const heading of document.body.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')) {
    if (!shown(heading) || !/\S/.test(heading.textContent ?? '')) continue;
    // A heading for screen readers only (a 1 px box, clipped to nothing) is not seen at all.
    if (seen(heading.getBoundingClientRect(), reach(heading, true)) < 1) continue;
    const s = style(heading);
    const wide = !/visible/.test(s.overflowX) && heading.scrollWidth > heading.clientWidth + 1;
    const tall = !/visible/.test(s.overflowY) && heading.scrollHeight > heading.clientHeight + 1;
    if (wide || tall) {
      raw.push({ check: 'clipped-heading', element: `${describe(heading)} “${sample(heading.textContent ?? '')}”`, measurement: `its text needs ${px(heading.scrollWidth)} × ${px(heading.scrollHeight)}, its box is ${px(heading.clientWidth)} × ${px(heading.clientHeight)}` });
    }
  }

  // 5. A checkbox or radio button far from its label (a stretched control draws its box mid-way).
  for (const control of document.body.querySelectorAll<HTMLInputElement>('input[type="checkbox"], input[type="radio"]')) {
    if (!shown(control) || !control.labels || control.labels.length === 0) continue;
    const c = control.getBoundingClientRect();
    if (c.width < 1 || seen(c, reach(control)) < 1) continue;
    const mark = { x: c.left + c.width / 2, y: c.top + c.height / 2 };
    let nearest = Infinity;
    for (const label of control.labels) {
      const texts = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (let t = texts.nextNode(); t; t = texts.nextNode()) {
        if (!/\S/.test(t.textContent ?? '')) continue;
        range.selectNodeContents(t);
        for (const r of range.getClientRects()) {
          const dx = Math.max(r.left - mark.x, 0, mark.x - r.right);
          const dy = Math.max(r.top - mark.y, 0, mark.y - r.bottom);
          nearest = Math.min(nearest, Math.hypot(dx, dy));
        }
      }
    }
    // The mark is about as wide as it is tall: its label's text should start within a few px of its edge.
    const apart = nearest - Math.min(c.width, c.height) / 2;
    if (Number.isFinite(nearest) && apart > 24) {
      raw.push({ check: 'label-apart', element: `${describe(control)} “${sample(control.labels[0]!.textContent ?? '')}”`, measurement: `its label's text is ${px(apart)} from the ${px(c.width)} × ${px(c.height)} control` });
    }
  }

  // 6. The header: its height on a phone, and nothing in it on two lines.
  const header = document.querySelector('header.site-header');
  if (header && shown(header)) {
    const bottom = header.getBoundingClientRect().bottom + window.scrollY;
    if (options.headerMaxPx !== null && bottom > options.headerMaxPx + 0.5) {
      raw.push({ check: 'header-height', element: 'header.site-header (with everything above it)', measurement: `ends ${px(bottom)} below the top > ${options.headerMaxPx} px` });
    }
    for (const item of header.querySelectorAll('a, button, span, p, strong')) {
      if (!shown(item) || item.closest('svg') || !/\S/.test(item.textContent ?? '')) continue;
      const lines = lineCount(item);
      if (lines > 1) raw.push({ check: 'header-wraps', element: `${describe(item)} “${sample(item.textContent ?? '')}”`, measurement: `on ${lines} lines` });
    }
  }

  // The same finding in the same place (every tick label of an axis) once, counted.
  const merged = new Map<string, LayoutFinding>();
  for (const finding of raw) {
    const key = `${finding.check}|${finding.element.replace(/ “.*”$/, '')}|${finding.measurement}`;
    const before = merged.get(key);
    merged.set(key, before ? { ...before, count: before.count + 1 } : { ...finding, count: 1 });
  }
  return [...merged.values()];
}

/**
 * Brings a page to what a person sees once it has settled: the header's session state filled
 * in, every island on it hydrated (scrolling it through brings `client:visible` ones to life),
 * fonts loaded, scrolled back to the top.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  // Fonts, then down the page a window at a time, two frames at each stop so that every
  // `client:visible` island passes through view in a drawn frame, in one round trip to the
  // browser (one per window height cost as much as the scrolling on a busy machine).
  await page.evaluate(async (step) => {
    await document.fonts.ready;
    const frame = () => new Promise<void>((done) => requestAnimationFrame(() => done()));
    const height = document.documentElement.scrollHeight;
    for (let y = 0; y < height; y += step) {
      window.scrollTo(0, y);
      await frame();
      await frame();
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
  }, page.viewportSize()!.height);
  // A scroll that passes an island between two frames never shows it to the IntersectionObserver
  // (on a busy machine that happens), so every poll brings the first one still waiting into view:
  // its first child, which is what `client:visible` observes (the island itself is
  // `display: contents` and has no box to scroll to). Polled every frame rather than every 250 ms,
  // so a visit goes on as soon as the last island has drawn.
  await page.waitForFunction(
    () => {
      const waiting = document.querySelector('astro-island[ssr]');
      (waiting?.firstElementChild ?? waiting)?.scrollIntoView({ block: 'center' });
      return !waiting && !document.querySelector('[data-header-session] .session-placeholder');
    },
    undefined,
    { timeout: 60_000, polling: 'raf' },
  );
  // Back to the top, and two frames: layout after the last island's render and the scroll back.
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    return new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
  });
}

/** One line per finding: what, where, how much (and how often). */
export const formatFinding = (where: string, f: LayoutFinding): string =>
  `${where} ${f.check}: ${f.element}: ${f.measurement}${f.count > 1 ? ` (×${f.count})` : ''}`;
