/**
 * The app icons, rendered from the logo with sharp when the site is built (prerendered, so the
 * PNGs are plain static files at run time and no binary is kept in the repository).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import sharp from 'sharp';
import logoSvg from '../../../public/favicon.svg?raw';
import { APP_ICONS } from '../../lib/pwa/appShell.ts';
import { iconSvg } from '../../lib/pwa/iconSvg.ts';

export const prerender = true;

export const getStaticPaths = (() => APP_ICONS.map((icon) => ({ params: { name: icon.name }, props: { icon } }))) satisfies GetStaticPaths;

type Props = { icon: (typeof APP_ICONS)[number] };

export const GET: APIRoute<Props> = async ({ props }) => {
  const png = await sharp(Buffer.from(iconSvg(logoSvg, props.icon))).png({ compressionLevel: 9 }).toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
