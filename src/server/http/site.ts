/**
 * The site's public origin, as the build knows it (`site` in astro.config.mjs, from SITE_URL):
 * for absolute links in what leaves the site (a downloaded file's methodology address). Never
 * the request's Host, which a client chooses (and the fast lane does not parse).
 */
export const siteOrigin: string = import.meta.env.SITE ?? 'http://127.0.0.1:4321';
