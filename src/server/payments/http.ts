/**
 * Minimal JSON helpers for the payment endpoints (to be folded into the shared src/server/http
 * helpers at merge): JSON responses, the `{error:{code,message,field}}` shape, same-origin
 * checks for browser POSTs and zod-validated JSON bodies.
 */
import type { z } from 'astro/zod';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });

export const errorJson = (status: number, code: string, message: string, field?: string): Response =>
  json({ error: field === undefined ? { code, message } : { code, message, field } }, status);

export const unauthenticated = (): Response => errorJson(401, 'unauthenticated', 'Sign in to use this endpoint.');

/**
 * A browser POST must come from our own pages: its Origin header equals the request's own
 * origin. Anything else (another site, no Origin at all) gets 403.
 */
export function sameOriginError(request: Request): Response | null {
  const origin = request.headers.get('origin');
  if (origin && origin === new URL(request.url).origin) return null;
  return errorJson(403, 'cross_origin', 'This request must come from a PolyIndex page.');
}

/** The most a payment endpoint reads (a webhook body is a few kilobytes). */
export const MAX_BODY_BYTES = 64 * 1024;

export async function readText(request: Request): Promise<{ ok: true; text: string } | { ok: false; response: Response }> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return { ok: false, response: errorJson(413, 'too_large', 'The request body is too large.') };
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) return { ok: false, response: errorJson(413, 'too_large', 'The request body is too large.') };
  return { ok: true, text };
}

/** Parses and validates a JSON body; a 400 response for anything else. */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; data: z.output<S> } | { ok: false; response: Response }> {
  const body = await readText(request);
  if (!body.ok) return body;
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    return { ok: false, response: errorJson(400, 'bad_json', 'The request body is not valid JSON.') };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
    return { ok: false, response: errorJson(400, 'bad_request', issue?.message ?? 'Invalid request body.', field) };
  }
  return { ok: true, data: parsed.data };
}
