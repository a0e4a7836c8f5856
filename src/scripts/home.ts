/**
 * The home page's behaviour, plain DOM code (no framework on public pages): the banner
 * carousel (arrows, dots, auto-advance that stops on hover, focus, "Pause" and reduced
 * motion), the banners brought up to date from /api/carousels/, the Naphtha teaser drawn from
 * its shape, the ticker (figures for subscribers, directions for everyone else), the paywall's
 * notice (`?locked=`), and the pause buttons of the moving strips. Text and
 * attributes are set as such, never as HTML.
 */
import { formatNumber, formatPrice } from '../lib/numbers.ts';
import { AUTO_ADVANCE_MS, afterScroll, autoAdvances, slideAtScroll, stepSlide, type CarouselPosition, type Teaser, type TickerAnswer, type TickerDirection, type TickerItem } from '../lib/home.ts';

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
  const state = { paused: false, hovered: false, focused: false };
  let position: CarouselPosition = { index: 0, heading: null };
  /** The next auto-advance (0: none armed). */
  let timer = 0;
  /** The settle check of the last scroll event (0: none pending). */
  let settle = 0;

  const mark = () => {
    const all = slides();
    all.forEach((slide, i) => slide.setAttribute('aria-label', `${i + 1} of ${all.length}`));
    [...dots.children].forEach((dot, i) => (i === position.index ? dot.setAttribute('aria-current', 'true') : dot.removeAttribute('aria-current')));
    section.dataset['index'] = String(position.index);
  };
  const show = (index: number) => {
    // A settle check armed by an earlier scroll would read where the track was, not this move.
    window.clearTimeout(settle);
    const left = index * track.clientWidth;
    // Already there, the track does not scroll, so no scroll would ever say the move arrived.
    position = { index, heading: Math.abs(track.scrollLeft - left) < 1 ? null : index };
    track.scrollTo({ left, behavior: reducedMotion.matches ? 'auto' : 'smooth' });
    mark();
  };
  /**
   * data-running says at once whether it advances by itself, and a slide stays a whole interval
   * after it starts running again or after a move by hand (`restart`): the countdown is armed
   * when it may run and dropped as soon as it may not.
   */
  const update = (restart = false) => {
    const running = autoAdvances({ ...state, reducedMotion: reducedMotion.matches, hidden: document.hidden, count: slides().length });
    section.dataset['running'] = String(running);
    if (!running || restart) {
      window.clearTimeout(timer);
      timer = 0;
    }
    if (running && timer === 0) {
      timer = window.setTimeout(() => {
        timer = 0;
        show(stepSlide(position.index, slides().length, 1));
        update();
      }, AUTO_ADVANCE_MS);
    }
  };
  const moveByHand = (index: number) => {
    show(index);
    update(true);
  };
  const renderDots = () => {
    const count = slides().length;
    const hadFocus = dots.contains(document.activeElement);
    dots.replaceChildren(
      ...slides().map((_, i) => {
        const dot = document.createElement('button');
        dot.type = 'button';
        dot.className = 'dot';
        dot.setAttribute('aria-label', `Show slide ${i + 1} of ${count}`);
        dot.addEventListener('click', () => moveByHand(i));
        return dot;
      }),
    );
    // A focused dot replaced would take the focus out of the carousel without a focusout.
    if (hadFocus) (dots.children[Math.min(position.index, count - 1)] as HTMLElement | undefined)?.focus();
    section.dataset['count'] = String(count);
  };

  section.querySelector('[data-carousel-prev]')?.addEventListener('click', () => moveByHand(stepSlide(position.index, slides().length, -1)));
  section.querySelector('[data-carousel-next]')?.addEventListener('click', () => moveByHand(stepSlide(position.index, slides().length, 1)));
  pause.addEventListener('click', () => {
    state.paused = !state.paused;
    pause.setAttribute('aria-pressed', String(state.paused));
    pause.textContent = state.paused ? 'Play' : 'Pause';
    section.dataset['paused'] = String(state.paused);
    update();
  });
  section.addEventListener('mouseenter', () => {
    state.hovered = true;
    update();
  });
  section.addEventListener('mouseleave', () => {
    state.hovered = false;
    update();
  });
  section.addEventListener('focusin', () => {
    state.focused = true;
    update();
  });
  section.addEventListener('focusout', (event) => {
    if (section.contains(event.relatedTarget as Node | null)) return;
    state.focused = false;
    update();
  });
  document.addEventListener('visibilitychange', () => update());
  reducedMotion.addEventListener('change', () => update());
  // A hand on the track takes over from the carousel's own move: its scroll is followed.
  for (const type of ['pointerdown', 'touchstart', 'wheel', 'keydown'] as const) {
    track.addEventListener(type, () => (position = { ...position, heading: null }), { passive: true });
  }
  // A swipe or scroll by hand moves the dots with it.
  track.addEventListener('scroll', () => {
    window.clearTimeout(settle);
    settle = window.setTimeout(() => {
      settle = 0;
      const before = position.index;
      position = afterScroll(position, slideAtScroll(track.scrollLeft, track.clientWidth, slides().length));
      if (position.index !== before) {
        mark();
        update(true);
      }
    }, 120);
  });

  renderDots();
  mark();
  update();
  section.dataset['ready'] = 'true';
  return {
    refresh() {
      renderDots();
      show(Math.min(position.index, slides().length - 1));
      update();
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

const ARROWS = { up: '▲', down: '▼', flat: '■' } as const;
const MOVES = { up: 'up', down: 'down', flat: 'unchanged' } as const;

/**
 * The ticker: latest value and change for visitors whose plan opens the data; for everyone else
 * each series' name and the direction of its latest move, with a line saying so.
 */
async function loadTicker(box: HTMLElement): Promise<void> {
  const response = await fetch('/api/home/ticker', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) {
    // Nothing to show (the store cannot answer): the strip goes, rather than wait for ever.
    box.hidden = true;
    return drop(response);
  }
  const answer = (await response.json()) as TickerAnswer;
  const label = (text: string) => {
    const span = document.createElement('span');
    span.className = 'ticker-label';
    span.textContent = text;
    return span;
  };
  const withFigures = (t: TickerItem) => {
    const li = document.createElement('li');
    const value = document.createElement('strong');
    value.textContent = `${formatPrice(t.value, t)} ${t.unit}`;
    const place = document.createElement('span');
    place.className = 'ticker-place';
    place.textContent = `(${t.place})`;
    const change = document.createElement('span');
    const tone = t.change === null || t.change === 0 ? 'flat' : t.change > 0 ? 'up' : 'down';
    change.className = tone;
    change.textContent = t.change === null ? '—' : `${ARROWS[tone]} ${formatPrice(Math.abs(t.change), t)}${t.changePct === null ? '' : ` (${formatNumber(Math.abs(t.changePct))}%)`}`;
    li.append(label(t.label), ' ', value, ' ', place, ' ', change);
    return li;
  };
  const direction = (t: TickerDirection) => {
    const li = document.createElement('li');
    const move = document.createElement('span');
    move.className = t.direction;
    move.textContent = `${ARROWS[t.direction]} ${MOVES[t.direction]}`;
    li.append(label(t.label), ' ', move);
    return li;
  };
  const items = () => (answer.figures ? answer.data.map(withFigures) : answer.data.map(direction));
  box.querySelector<HTMLElement>('[data-ticker-list]')!.replaceChildren(...items());
  box.querySelector<HTMLElement>('[data-ticker-copy]')!.replaceChildren(...items());
  box.querySelector<HTMLElement>('[data-ticker-heading]')!.textContent = answer.figures ? 'Latest prices' : 'Latest moves';
  box.dataset['figures'] = String(answer.figures);
  for (const note of document.querySelectorAll<HTMLElement>('[data-ticker-note]')) note.hidden = note.dataset['tickerNote'] !== (answer.figures ? 'figures' : 'directions');
}

/** The paywall's notice: the prebuilt one whose screen id `?locked=` names (anything else shows nothing). */
function showLockedNotice(): void {
  const locked = new URLSearchParams(window.location.search).get('locked');
  if (!locked) return;
  for (const notice of document.querySelectorAll<HTMLElement>('[data-locked]')) {
    if (notice.dataset['locked'] === locked) notice.hidden = false;
  }
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
showLockedNotice();
const ticker = document.querySelector<HTMLElement>('[data-ticker]');
if (ticker) void loadTicker(ticker).catch(() => (ticker.hidden = true));
initMarquees();
