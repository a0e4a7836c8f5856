/** The web app manifest of the installable app (written once at build time; public). */
import type { APIRoute } from 'astro';
import { appManifest } from '../lib/pwa/appShell.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(JSON.stringify(appManifest, null, 2), { headers: { 'Content-Type': 'application/manifest+json; charset=utf-8' } });
