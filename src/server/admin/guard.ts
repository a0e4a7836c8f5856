/**
 * The one admin check of every admin page and endpoint (defence in depth: the middleware's
 * access policy already refuses non-admins; this holds even if a route is reached without it).
 */
import { jsonError, sameOriginError, unauthenticated } from '../http/responses.ts';
import type { Session } from '../auth/session.ts';
import type { AuditActor } from '../store/audit.ts';

/** The administrator behind a session, as the audit log names them; null for anyone else. */
export function adminActor(session: Session | null | undefined): AuditActor | null {
  if (!session || session.record?.role !== 'admin') return null;
  return { uid: session.uid, email: session.email ?? session.record.email ?? null };
}

export type AdminGate = { readonly ok: true; readonly actor: AuditActor } | { readonly ok: false; readonly response: Response };

/**
 * For admin endpoints: 401 without a session, 403 for a non-admin, and for writes 403 unless
 * the request's Origin is this site (responses.ts's same-origin rule).
 */
export function requireAdmin(context: { readonly locals: App.Locals; readonly request: Request }): AdminGate {
  const session = context.locals.session;
  if (!session) return { ok: false, response: unauthenticated() };
  const actor = adminActor(session);
  if (!actor) return { ok: false, response: jsonError(403, 'forbidden', 'Administrators only.') };
  if (context.request.method !== 'GET' && context.request.method !== 'HEAD') {
    const crossOrigin = sameOriginError(context.request);
    if (crossOrigin) return { ok: false, response: crossOrigin };
  }
  return { ok: true, actor };
}
