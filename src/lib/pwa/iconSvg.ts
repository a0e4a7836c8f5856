/**
 * The app icons' drawings, from the site's logo (public/favicon.svg): the logo itself for `any`
 * icons, and for full-bleed (maskable) ones the logo shrunk into the safe zone on the brand's
 * background, so a launcher's circle or squircle mask never cuts the mark.
 */
import { THEME_COLOR, type AppIcon } from './appShell.ts';

/** The logo at 75 %: the rising line then stays well inside the central circle of 80 % width. */
const SAFE_ZONE_SCALE = 0.75;

interface Logo {
  readonly width: number;
  readonly height: number;
  readonly inner: string;
}

function parseLogo(svg: string): Logo {
  const m = /<svg\b([^>]*)>([\s\S]*)<\/svg>\s*$/i.exec(svg.trim());
  const viewBox = m ? /\bviewBox="\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*"/.exec(m[1]!) : null;
  if (!m || !viewBox) throw new Error('The logo must be an <svg> with a viewBox starting at 0 0.');
  return { width: Number(viewBox[1]), height: Number(viewBox[2]), inner: m[2]! };
}

/** The SVG to render (at `icon.size` pixels square) for one app icon. */
export function iconSvg(logoSvg: string, icon: Pick<AppIcon, 'size' | 'purpose'>): string {
  const logo = parseLogo(logoSvg);
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${icon.size}" height="${icon.size}" viewBox="0 0 ${logo.width} ${logo.height}">`;
  if (icon.purpose === 'any') return `${open}${logo.inner}</svg>`;
  const dx = (logo.width * (1 - SAFE_ZONE_SCALE)) / 2;
  const dy = (logo.height * (1 - SAFE_ZONE_SCALE)) / 2;
  return (
    `${open}<rect width="${logo.width}" height="${logo.height}" fill="${THEME_COLOR}"/>` +
    `<g transform="translate(${dx} ${dy}) scale(${SAFE_ZONE_SCALE})">${logo.inner}</g></svg>`
  );
}
