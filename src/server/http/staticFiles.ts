/**
 * The built site's files (dist/client: hashed /_astro/ assets, prerendered pages, public/) for
 * the server entry, which runs @astrojs/node in middleware mode: that mode leaves static files to
 * the host server. Same rules as the adapter's standalone server: `/dir` serves
 * `/dir/index.html` (trailingSlash 'ignore'), hashed assets are immutable for a year, dot files
 * are refused (but `/.well-known/`), and a miss goes on to Astro (its 404 page, or an on-demand
 * route).
 */
import { statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, posix, resolve, sep } from 'node:path';
import send from 'send';
import { SECURITY_HEADERS } from '../edge/headers.ts';
import { createCompressedFiles, varyIfCompressible } from './compressedFiles.ts';

export type StaticHandler = (req: IncomingMessage, res: ServerResponse, miss: () => void) => void;

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Hashed assets never change under their name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** What send says of any other file. */
const SEND_DEFAULT_CACHE = 'public, max-age=0';

export function createStaticFiles(clientDir: string, assetsDir = '_astro'): StaticHandler {
  const root = resolve(clientDir);
  const compressed = createCompressedFiles();
  return (req, res, miss) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return miss();
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const urlPath = q < 0 ? raw : raw.slice(0, q);
    let fsPath: string;
    try {
      fsPath = decodeURI(urlPath);
    } catch {
      res.writeHead(400, SECURITY_HEADERS);
      res.end('Bad request.');
      return;
    }
    const full = resolve(join(root, fsPath));
    if (full !== root && !full.startsWith(root + sep)) return miss();
    const path = posix.normalize(isDirectory(full) && !urlPath.endsWith('/') ? `${urlPath}/index.html` : urlPath);
    const cacheControl = path.startsWith(`/${assetsDir}/`) ? IMMUTABLE : SEND_DEFAULT_CACHE;
    // A text file for a request that takes brotli or gzip: from memory, compressed once (./compressedFiles.ts).
    if (!/(^|\/)\.(?!well-known\/)/.test(path) && compressed(req, res, join(root, decodeURI(path.endsWith('/') ? `${path}index.html` : path)), cacheControl)) return;
    const stream = send(req, path, { root, dotfiles: path.startsWith('/.well-known/') ? 'allow' : 'deny' });
    let found = false;
    stream.on('file', () => {
      found = true;
    });
    stream.on('headers', (response: ServerResponse, file: string) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
      varyIfCompressible(response, file);
      if (path.startsWith(`/${assetsDir}/`)) response.setHeader('Cache-Control', IMMUTABLE);
    });
    stream.on('error', (error: Error & { statusCode?: number }) => {
      if (!found) return miss();
      const status = error.statusCode ?? 500;
      if (status >= 500) console.error('[static]', error);
      res.writeHead(status, SECURITY_HEADERS);
      res.end();
    });
    stream.pipe(res);
  };
}
