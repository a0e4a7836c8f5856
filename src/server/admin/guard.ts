/**
 * The one admin check of every admin page and endpoint (defence in depth: the middleware's
 * access policy already refuses non-admins; this holds even if a route is reached without it).
 */
import { isEditorRole } from '../../lib/access/policy.ts';
import { jsonError, sameOriginError, unauthenticated } from '../http/responses.ts';
import type { Session } from '../auth/session.ts';
import type { AuditActor } from '../store/audit.ts';

/** The administrator behind a session, as the audit log names them; null for anyone else. */
export function adminActor(session: Session | null | undefined): AuditActor | null {
  if (!session || session.record?.role !== 'admin') return null;
  return { uid: session.uid, email: session.email ?? session.record.email ?? null };
}

/** An editor or administrator (the newsroom's tools: posts and banners), as the audit log names them; null for anyone else. */
export function editorActor(session: Session | null | undefined): AuditActor | null {
  if (!session || !isEditorRole(session.record?.role)) return null;
  return { uid: session.uid, email: session.email ?? session.record?.email ?? null };
}

export type AdminGate = { readonly ok: true; readonly actor: AuditActor } | { readonly ok: false; readonly response: Response };

/**
 * For admin endpoints: 401 without a session, 403 for a non-admin, and for writes 403 unless
 * the request's Origin is this site (responses.ts's same-origin rule).
 */
export function requireAdmin(context: { readonly locals: App.Locals; readonly request: Request }): AdminGate {
  return gate(context, adminActor, 'Administrators only.');
}

/** As requireAdmin, for the newsroom's endpoints (posts, banners): editors and administrators. */
export function requireEditor(context: { readonly locals: App.Locals; readonly request: Request }): AdminGate {
  return gate(context, editorActor, 'Editors and administrators only.');
}

function gate(context: { readonly locals: App.Locals; readonly request: Request }, actorOf: (session: Session) => AuditActor | null, refusal: string): AdminGate {
  const session = context.locals.session;
  if (!session) return { ok: false, response: unauthenticated() };
  const actor = actorOf(session);
  if (!actor) return { ok: false, response: jsonError(403, 'forbidden', refusal) };
  if (context.request.method !== 'GET' && context.request.method !== 'HEAD') {
    const crossOrigin = sameOriginError(context.request);
    if (crossOrigin) return { ok: false, response: crossOrigin };
  }
  return { ok: true, actor };
}
