/**
 * The images the site resizes through `/_image` (astro:assets), and the one check of a resize
 * request. Resizing costs CPU that an anonymous visitor can ask for, so the endpoint serves only
 * what our pages link to: this site's own built images, at the widths and formats below, with
 * a bounded quality. Anything else is a 4xx that says why, before any pixel is decoded.
 */

/** Widths each kind of picture is offered at (its `<Image widths>` and fallback `width`). */
export const IMAGE_WIDTHS = {
  /** VIP delegation photos, two per event, half the column on wide screens. */
  delegationPhoto: [400, 800],
  /** An article's lead image, the text column's width (760 px) at 1× and 2×-ish. */
  articleLead: [480, 960],
  /** Open Graph / Twitter card (1200 × 630 is what the networks ask for). */
  socialCard: [1200],
} as const satisfies Record<string, readonly number[]>;

/** The largest of a kind's widths: the `<img src>` fallback. */
export const fallbackWidth = (widths: readonly number[]): number => Math.max(...widths);

/** Every width `/_image` resizes to. */
export const ALLOWED_WIDTHS: ReadonlySet<number> = new Set(Object.values(IMAGE_WIDTHS).flat());

/** Output formats our pages ask for: WebP (Astro's default) and PNG (social cards). */
export const ALLOWED_FORMATS: ReadonlySet<string> = new Set(['webp', 'png']);

/** The tallest output: no page shows a picture taller than it is wide by more than this. */
export const MAX_HEIGHT = 1600;

/** Quality: the service's default when absent; a page may ask for a named level or 40–90. */
const QUALITY_PRESETS = new Set(['low', 'mid', 'high']);
export const QUALITY_RANGE = { min: 40, max: 90 } as const;

/** Parameters Astro's image URLs carry; any other is refused. */
const KNOWN_PARAMS = new Set(['href', 'w', 'h', 'f', 'q']);

/** A built asset of this site: `/_astro/{name}.{hash}.{png|jpg|jpeg|webp}`. */
const LOCAL_RASTER = /^\/_astro\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}\.(png|jpe?g|webp)$/i;

export type ImageRequestProblem = {
  readonly status: 400 | 404;
  readonly code: string;
  readonly message: string;
  readonly field: string;
};

const problem = (code: string, message: string, field: string, status: 400 | 404 = 400): ImageRequestProblem => ({ status, code, message, field });

const positiveInteger = (text: string): number | null => (/^[1-9]\d{0,4}$/.test(text) ? Number(text) : null);

/**
 * Checks a `/_image` query: null when it is one our pages make, else the problem (the first
 * found). Only the query is read: whether the file exists is the endpoint's business (404).
 */
export function imageRequestProblem(params: URLSearchParams): ImageRequestProblem | null {
  for (const name of new Set(params.keys())) {
    if (!KNOWN_PARAMS.has(name)) return problem('invalid_input', `Unknown parameter "${name}".`, name);
    if (params.getAll(name).length > 1) return problem('invalid_input', `Give "${name}" once.`, name);
  }

  const href = params.get('href');
  if (!href) return problem('invalid_input', 'Name the image (href).', 'href');
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) return problem('remote_image', 'Only images of this site can be resized here.', 'href');
  if (/\.svg$/i.test(href)) return problem('unsupported_image', 'SVG images are not resized: they are served as they are.', 'href');
  if (!LOCAL_RASTER.test(href) || href.includes('..')) {
    return problem('unknown_image', 'There is no such image: only the PNG, JPEG and WebP files of this site can be resized.', 'href', 404);
  }

  const w = params.get('w');
  const width = w === null ? null : positiveInteger(w);
  if (width === null || !ALLOWED_WIDTHS.has(width)) {
    return problem('invalid_input', `The width must be one of ${[...ALLOWED_WIDTHS].sort((a, b) => a - b).join(', ')}.`, 'w');
  }

  const h = params.get('h');
  if (h !== null) {
    const height = positiveInteger(h);
    if (height === null || height > MAX_HEIGHT) return problem('invalid_input', `The height must be a whole number of pixels up to ${MAX_HEIGHT}.`, 'h');
  }

  const f = params.get('f');
  if (f === null || !ALLOWED_FORMATS.has(f)) return problem('invalid_input', `The format must be one of ${[...ALLOWED_FORMATS].join(', ')}.`, 'f');

  const q = params.get('q');
  if (q !== null && !QUALITY_PRESETS.has(q)) {
    const quality = positiveInteger(q);
    if (quality === null || quality < QUALITY_RANGE.min || quality > QUALITY_RANGE.max) {
      return problem('invalid_input', `The quality must be low, mid, high or ${QUALITY_RANGE.min}–${QUALITY_RANGE.max}.`, 'q');
    }
  }
  return null;
}

/** The request's parameters in one order: the key of a cached resize. */
export const canonicalImageQuery = (params: URLSearchParams): string =>
  [...KNOWN_PARAMS]
    .filter((name) => params.has(name))
    .map((name) => `${name}=${encodeURIComponent(params.get(name)!)}`)
    .join('&');
