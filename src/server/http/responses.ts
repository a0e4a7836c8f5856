/**
 * The HTTP edge of every endpoint: JSON answers, the `{error:{code, message, field}}` shape,
 * the same-origin rule for browser POSTs, and bounded, zod-validated bodies and queries.
 */
import type { z } from 'astro/zod';
import { isJsonMediaType } from '../../lib/mediaType.ts';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } as const;

/** A JSON answer; `Cache-Control: no-store` unless the caller says otherwise. */
export function json(body: unknown, init: number | ResponseInit = 200): Response {
  const options: ResponseInit = typeof init === 'number' ? { status: init } : init;
  return new Response(JSON.stringify(body), { ...options, headers: { ...JSON_HEADERS, ...options.headers } });
}

export const jsonError = (status: number, code: string, message: string, field?: string): Response =>
  json({ error: field === undefined ? { code, message } : { code, message, field } }, status);

export const unauthenticated = (): Response => jsonError(401, 'unauthenticated', 'Sign in to use this endpoint.');

/**
 * A browser POST must come from our own pages: its Origin header equals the request's own
 * origin. Anything else (another site, no Origin at all) gets 403, so a cookie cannot be
 * ridden from elsewhere.
 */
export function sameOriginError(request: Request): Response | null {
  const origin = request.headers.get('origin');
  if (origin && origin === new URL(request.url).origin) return null;
  return jsonError(403, 'cross_origin', 'This request must come from a PolyIndex page.');
}

/** The most an endpoint reads from a body (a webhook body is a few kilobytes). */
export const MAX_BODY_BYTES = 64 * 1024;

export async function readText(request: Request): Promise<{ ok: true; text: string } | { ok: false; response: Response }> {
  return readTextUpTo(request, MAX_BODY_BYTES, 'The request body is too large.');
}

/**
 * Reads a UTF-8 body of at most `maxBytes`, streaming: a larger body (declared or actual) is a
 * 413 with `message`, and reading stops at the limit (bulk endpoints pass their own bound).
 */
export async function readTextUpTo(
  request: Request,
  maxBytes: number,
  message: string,
): Promise<{ ok: true; text: string } | { ok: false; response: Response }> {
  const body = await readBytesUpTo(request, maxBytes, message);
  return body.ok ? { ok: true, text: Buffer.from(body.bytes).toString('utf8') } : body;
}

/** The raw body, at most `maxBytes` (declared or actual), else a 413 with `message`. */
export async function readBytesUpTo(
  request: Request,
  maxBytes: number,
  message: string,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; response: Response }> {
  const tooLarge = { ok: false as const, response: jsonError(413, 'too_large', message) };
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) return tooLarge;
  if (!request.body) return { ok: true, bytes: new Uint8Array() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge;
    }
    chunks.push(value);
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/** Validates with a zod schema; a failure becomes a 400 naming the first bad field. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): { ok: true; data: z.output<S> } | { ok: false; response: Response } {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  return { ok: false, response: jsonError(400, 'invalid_input', issue?.message ?? 'Invalid input.', field) };
}

/** 415 for a body not declared as JSON (see lib/mediaType.ts for why it is refused unread). */
export const unsupportedMediaType = (): Response =>
  jsonError(415, 'unsupported_media_type', 'This endpoint reads JSON only: send the body with Content-Type: application/json.');

/** null when the request declares a JSON body, else the 415 to answer. */
export function jsonContentTypeError(request: Request): Response | null {
  return isJsonMediaType(request.headers.get('content-type')) ? null : unsupportedMediaType();
}

/**
 * Reads, parses and validates a JSON body; a body not declared as JSON is a 415 (unread), bad
 * JSON or input a 400 (413 when too large), never a 500.
 */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  { maxBytes = MAX_BODY_BYTES, tooLarge = 'The request body is too large.' }: { maxBytes?: number; tooLarge?: string } = {},
): Promise<{ ok: true; data: z.output<S> } | { ok: false; response: Response }> {
  const notJson = jsonContentTypeError(request);
  if (notJson) return { ok: false, response: notJson };
  const body = await readTextUpTo(request, maxBytes, tooLarge);
  if (!body.ok) return body;
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    return { ok: false, response: jsonError(400, 'invalid_body', 'The request body is not valid JSON.') };
  }
  return parseOr400(schema, value);
}

/**
 * Reads a multipart/form-data body of at most `maxBytes` (an image upload): another type is a 415
 * with `unsupported`, a larger body a 413 with `tooLarge`, an unreadable form a 400.
 */
export async function readFormUpTo(
  request: Request,
  { maxBytes, tooLarge, unsupported }: { maxBytes: number; tooLarge: string; unsupported: string },
): Promise<{ ok: true; form: FormData } | { ok: false; response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) return { ok: false, response: jsonError(415, 'unsupported_media_type', unsupported) };
  const body = await readBytesUpTo(request, maxBytes, tooLarge);
  if (!body.ok) return body;
  try {
    return { ok: true, form: await new Response(Buffer.from(body.bytes), { headers: { 'content-type': type } }).formData() };
  } catch {
    return { ok: false, response: jsonError(400, 'invalid_body', 'The form could not be read.') };
  }
}

/**
 * The opening of every browser POST that acts for a signed-in user: a session (401), from our
 * own pages (403), with a body declared as JSON (415) that is valid (400/413).
 */
export async function readSignedInPost<S extends z.ZodType, T>(
  request: Request,
  session: T | null,
  schema: S,
): Promise<{ ok: true; session: T; data: z.output<S> } | { ok: false; response: Response }> {
  if (!session) return { ok: false, response: unauthenticated() };
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return { ok: false, response: crossOrigin };
  const input = await readJson(request, schema);
  return input.ok ? { ok: true, session, data: input.data } : input;
}
