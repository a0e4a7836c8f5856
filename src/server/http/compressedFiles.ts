/**
 * The built files (./staticFiles.ts) in brotli or gzip: a text file of the build (the hashed
 * scripts and styles, prerendered pages such as /, /pricing and /methodology, the manifest, SVG)
 * asked for by a request that takes a compressed answer is read once, compressed once per encoding
 * (src/server/edge/compression.ts) and then answered from memory. The build
 * does not change while the server runs; a file whose size or time changed is read again.
 *
 * Everything else (images, fonts, a request that wants identity, a Range request, a small file)
 * goes to `send` as before, which also marks a compressible file `Vary: Accept-Encoding`
 * (`varyIfCompressible`). The validators are send's own (`W/"size-mtime"`, weak already, the same
 * for every encoding).
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { SECURITY_HEADERS } from '../edge/headers.ts';
import { MIN_COMPRESSED_BYTES, keptVariant, negotiateEncoding } from '../edge/compression.ts';
import { matchesIfNoneMatch } from './json.ts';

/** The compressible types of the build's files, by extension. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const compressibleFile = (path: string): boolean => extname(path).toLowerCase() in TEXT_TYPES;

/** send's `headers` hook: every compressible file says its answer depends on Accept-Encoding. */
export function varyIfCompressible(res: ServerResponse, path: string): void {
  if (compressibleFile(path)) res.setHeader('Vary', 'Accept-Encoding');
}

interface KeptFile {
  readonly size: number;
  readonly mtimeMs: number;
  readonly body: Buffer;
}

/** send's validator for a file (the `etag` package's form for a stat). */
const etagOfStat = (stat: Stats): string => `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;

export interface CompressedFiles {
  /** Answers `req` from memory when it should (true), else false: send answers it. */
  (req: IncomingMessage, res: ServerResponse, file: string, cacheControl: string): boolean;
}

export function createCompressedFiles(): CompressedFiles {
  const files = new Map<string, KeptFile>();
  return (req, res, file, cacheControl) => {
    const type = TEXT_TYPES[extname(file).toLowerCase()];
    if (!type || req.headers.range) return false;
    const coding = negotiateEncoding(req.headers['accept-encoding']);
    if (!coding) return false;
    let stat: Stats;
    try {
      stat = statSync(file);
    } catch {
      return false;
    }
    if (!stat.isFile() || stat.size < MIN_COMPRESSED_BYTES) return false;
    let kept = files.get(file);
    if (!kept || kept.size !== stat.size || kept.mtimeMs !== stat.mtimeMs) {
      try {
        kept = { size: stat.size, mtimeMs: stat.mtimeMs, body: readFileSync(file) };
      } catch {
        return false;
      }
      files.set(file, kept);
    }
    const etag = etagOfStat(stat);
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'cache-control': cacheControl,
      'last-modified': stat.mtime.toUTCString(),
      etag,
      vary: 'Accept-Encoding',
    };
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    const fresh = ifNoneMatch ? matchesIfNoneMatch(ifNoneMatch, etag) : !!ifModifiedSince && Math.floor(stat.mtimeMs / 1000) <= Math.floor(Date.parse(ifModifiedSince) / 1000);
    if (fresh) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const owner = kept;
    void keptVariant(owner, owner.body, coding).then(
      (body) => {
        res.writeHead(200, { ...headers, 'content-type': type, 'content-encoding': coding, 'content-length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        console.error('[static] compression failed:', error);
        if (!res.headersSent) res.writeHead(500, SECURITY_HEADERS);
        res.end();
      },
    );
    return true;
  };
}
