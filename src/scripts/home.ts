/**
 * The home page's behaviour, plain DOM code (no framework on public pages): the banner
 * carousel (arrows, dots, auto-advance that stops on hover, focus, "Pause" and reduced
 * motion), the banners brought up to date from /api/carousels/, the Naphtha teaser drawn from
 * its shape, the subscribers' ticker, and the pause buttons of the moving strips. Text and
 * attributes are set as such, never as HTML.
 */
import { formatNumber } from '../lib/pageParams.ts';
import { AUTO_ADVANCE_MS, autoAdvances, stepSlide, type Teaser, type TickerItem } from '../lib/home.ts';

const SVG = 'http://www.w3.org/2000/svg';

/** Reads and drops a refused answer's body: an unread body keeps its request open in the browser. */
const drop = async (response: Response): Promise<void> => {
  await response.text().catch(() => undefined);
};
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

interface Carousel {
  refresh(): void;
}

function initBannerCarousel(section: HTMLElement): Carousel {
  const track = section.querySelector<HTMLElement>('[data-carousel-track]')!;
  const dots = section.querySelector<HTMLElement>('[data-carousel-dots]')!;
  const pause = section.querySelector<HTMLButtonElement>('[data-carousel-pause]')!;
  const slides = () => [...track.querySelectorAll<HTMLElement>('.slide')];
  const state = { index: 0, paused: false, hovered: false, focused: false };

  const mark = () => {
    const all = slides();
    all.forEach((slide, i) => slide.setAttribute('aria-label', `${i + 1} of ${all.length}`));
    [...dots.children].forEach((dot, i) => (i === state.index ? dot.setAttribute('aria-current', 'true') : dot.removeAttribute('aria-current')));
    section.dataset['index'] = String(state.index);
  };
  const show = (index: number) => {
    state.index = index;
    track.scrollTo({ left: index * track.clientWidth, behavior: reducedMotion.matches ? 'auto' : 'smooth' });
    mark();
  };
  const renderDots = () => {
    const count = slides().length;
    dots.replaceChildren(
      ...slides().map((_, i) => {
        const dot = document.createElement('button');
        dot.type = 'button';
        dot.className = 'dot';
        dot.setAttribute('aria-label', `Show slide ${i + 1} of ${count}`);
        dot.addEventListener('click', () => show(i));
        return dot;
      }),
    );
    section.dataset['count'] = String(count);
  };

  section.querySelector('[data-carousel-prev]')?.addEventListener('click', () => show(stepSlide(state.index, slides().length, -1)));
  section.querySelector('[data-carousel-next]')?.addEventListener('click', () => show(stepSlide(state.index, slides().length, 1)));
  pause.addEventListener('click', () => {
    state.paused = !state.paused;
    pause.setAttribute('aria-pressed', String(state.paused));
    pause.textContent = state.paused ? 'Play' : 'Pause';
    section.dataset['paused'] = String(state.paused);
  });
  section.addEventListener('mouseenter', () => (state.hovered = true));
  section.addEventListener('mouseleave', () => (state.hovered = false));
  section.addEventListener('focusin', () => (state.focused = true));
  section.addEventListener('focusout', (event) => {
    if (!section.contains(event.relatedTarget as Node | null)) state.focused = false;
  });
  // A swipe or scroll by hand moves the dots with it.
  let settle = 0;
  track.addEventListener('scroll', () => {
    window.clearTimeout(settle);
    settle = window.setTimeout(() => {
      const index = Math.round(track.scrollLeft / Math.max(1, track.clientWidth));
      if (index !== state.index) {
        state.index = index;
        mark();
      }
    }, 120);
  });
  window.setInterval(() => {
    const running = autoAdvances({ ...state, reducedMotion: reducedMotion.matches, hidden: document.hidden, count: slides().length });
    section.dataset['running'] = String(running);
    if (running) show(stepSlide(state.index, slides().length, 1));
  }, AUTO_ADVANCE_MS);
  section.dataset['running'] = String(autoAdvances({ ...state, reducedMotion: reducedMotion.matches, hidden: document.hidden, count: slides().length }));

  renderDots();
  mark();
  section.dataset['ready'] = 'true';
  return {
    refresh() {
      renderDots();
      show(Math.min(state.index, slides().length - 1));
    },
  };
}

interface CarouselBanner {
  title: string;
  subtitle: string;
  href: string;
  image: string;
  alt: string;
}

/** The page is prerendered with the seed banners; the admin manages them in the store (public, cached 5 minutes). */
async function refreshBanners(section: HTMLElement, carousel: Carousel): Promise<void> {
  const track = section.querySelector<HTMLElement>('[data-carousel-track]')!;
  const response = await fetch('/api/carousels/', { headers: { Accept: 'application/json' } });
  if (!response.ok) return drop(response);
  const banners = (await response.json()) as CarouselBanner[];
  const current = [...track.querySelectorAll('img')].map((img) => img.getAttribute('src')).join('|');
  if (banners.length === 0 || banners.map((b) => b.image).join('|') === current) {
    section.dataset['live'] = 'true';
    return;
  }
  track.replaceChildren(
    ...banners.map((b, index) => {
      const slide = document.createElement('a');
      slide.className = 'slide';
      slide.href = b.href.startsWith('/') && !b.href.startsWith('//') ? b.href : '/';
      slide.setAttribute('aria-roledescription', 'slide');
      const img = document.createElement('img');
      Object.assign(img, { src: b.image, alt: b.alt, width: 1600, height: 500, loading: index === 0 ? 'eager' : 'lazy' });
      const caption = document.createElement('span');
      caption.className = 'caption';
      const title = document.createElement('strong');
      title.textContent = b.title;
      const subtitle = document.createElement('span');
      subtitle.textContent = b.subtitle;
      caption.append(title, subtitle);
      slide.append(img, caption);
      return slide;
    }),
  );
  carousel.refresh();
  section.dataset['live'] = 'true';
}

/** The teaser: the trend's shape as a line, its direction in words. */
async function loadTeaser(card: HTMLElement): Promise<void> {
  const response = await fetch('/api/home/teaser', { headers: { Accept: 'application/json' } });
  if (!response.ok) return drop(response);
  const { data } = (await response.json()) as { data: Teaser };
  const svg = card.querySelector<SVGSVGElement>('svg[data-teaser-shape]')!;
  const n = data.shape.length;
  if (n > 1) {
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', data.shape.map((v, i) => `${((i / (n - 1)) * 100).toFixed(2)},${(38 - v * 0.36).toFixed(2)}`).join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', '#d62828');
    line.setAttribute('stroke-width', '1.2');
    line.setAttribute('vector-effect', 'non-scaling-stroke');
    svg.replaceChildren(line);
  }
  const words = { up: 'trending up', down: 'trending down', flat: 'moving sideways' } as const;
  const summary = `${data.label} has been ${words[data.direction]} over the ${data.period}.`;
  svg.setAttribute('aria-label', summary);
  card.querySelector('[data-teaser-summary]')!.textContent = summary;
  card.dataset['direction'] = data.direction;
}

/** The ticker: only for visitors whose plan includes the data (others get 401/403 and see nothing). */
async function loadTicker(box: HTMLElement): Promise<void> {
  const response = await fetch('/api/home/ticker', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) return drop(response);
  const { data } = (await response.json()) as { data: TickerItem[] };
  const item = (t: TickerItem) => {
    const li = document.createElement('li');
    const label = document.createElement('span');
    label.className = 'ticker-label';
    label.textContent = t.label;
    const value = document.createElement('strong');
    value.textContent = `${formatNumber(t.value)} ${t.unit}`;
    const change = document.createElement('span');
    const tone = t.change === null || t.change === 0 ? 'flat' : t.change > 0 ? 'up' : 'down';
    change.className = tone;
    change.textContent = t.change === null ? '—' : `${tone === 'up' ? '▲' : tone === 'down' ? '▼' : '■'} ${formatNumber(Math.abs(t.change))}${t.changePct === null ? '' : ` (${formatNumber(Math.abs(t.changePct))}%)`}`;
    li.append(label, ' ', value, ' ', change);
    return li;
  };
  const list = box.querySelector<HTMLElement>('[data-ticker-list]')!;
  const copy = box.querySelector<HTMLElement>('[data-ticker-copy]')!;
  list.replaceChildren(...data.map(item));
  copy.replaceChildren(...data.map(item));
  box.hidden = false;
}

/** The moving strips (ticker, partners) stop with their Pause button, and on hover or focus (CSS). */
function initMarquees(): void {
  for (const strip of document.querySelectorAll<HTMLElement>('[data-marquee]')) {
    const button = strip.querySelector<HTMLButtonElement>('[data-marquee-pause]');
    button?.addEventListener('click', () => {
      const paused = strip.dataset['paused'] !== 'true';
      strip.dataset['paused'] = String(paused);
      button.setAttribute('aria-pressed', String(paused));
      button.textContent = paused ? 'Play' : 'Pause';
    });
  }
}

const bannerSection = document.querySelector<HTMLElement>('[data-carousel]');
if (bannerSection) {
  const carousel = initBannerCarousel(bannerSection);
  void refreshBanners(bannerSection, carousel).catch(() => undefined);
}
const teaser = document.querySelector<HTMLElement>('[data-teaser]');
if (teaser) void loadTeaser(teaser).catch(() => undefined);
const ticker = document.querySelector<HTMLElement>('[data-ticker]');
if (ticker) void loadTicker(ticker).catch(() => undefined);
initMarquees();
