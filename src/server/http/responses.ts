/** JSON answers of every endpoint: data, or `{error:{code, message, field}}` with the right status. */
import type { z } from 'astro/zod';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

export function jsonResponse(data: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(data), {
    ...init,
    headers: { ...JSON_HEADERS, 'Cache-Control': 'no-store', ...init.headers },
  });
}

export function jsonError(status: number, code: string, message: string, field?: string): Response {
  return jsonResponse({ error: { code, message, ...(field ? { field } : {}) } }, { status });
}

/** Parses with a zod schema; a failure becomes a 400 naming the first bad field. */
export function parseOr400<T extends z.ZodType>(schema: T, input: unknown): { ok: true; data: z.infer<T> } | { ok: false; response: Response } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  return { ok: false, response: jsonError(400, 'invalid_input', issue?.message ?? 'Invalid input.', field) };
}

/** Reads a JSON body; anything that is not a JSON object is a 400, never a 500. */
export async function readJsonBody(request: Request): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    return { ok: false, response: jsonError(400, 'invalid_body', 'Send a JSON body (Content-Type: application/json).') };
  }
  const text = await request.text();
  if (text.length > 64 * 1024) return { ok: false, response: jsonError(400, 'invalid_body', 'The body is too large.') };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: jsonError(400, 'invalid_body', 'The body is not valid JSON.') };
  }
}

/**
 * Browser POSTs must come from this site: the Origin header (or, failing that, Referer) must
 * be our own origin. Blocks cross-site form and fetch posts that would ride the cookie.
 */
export function isSameOrigin(request: Request, url: URL): boolean {
  const origin = request.headers.get('origin');
  if (origin !== null) return origin === url.origin;
  const referer = request.headers.get('referer');
  if (!referer || !URL.canParse(referer)) return false;
  return new URL(referer).origin === url.origin;
}

export const crossOriginRefused = (): Response => jsonError(403, 'cross_origin', 'This request must come from the PolyIndex site.');
