/** The audit log's query string (page and API): validated, bounded; anything bad reads as "not given". */
import { z } from 'astro/zod';
import type { AuditQuery } from '../store/audit.ts';

export const AUDIT_PAGE_SIZE = 50;

const text = z.string().trim().min(1).max(200).optional().catch(undefined);

const Query = z.object({
  target: text,
  actor: text,
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  pageSize: z.coerce.number().int().min(1).max(200).catch(AUDIT_PAGE_SIZE),
});

export function auditQueryOf(params: URLSearchParams): AuditQuery & { page: number; pageSize: number } {
  const raw = Object.fromEntries(['target', 'actor', 'page', 'pageSize'].map((k) => [k, params.get(k) ?? undefined]));
  const q = Query.parse(raw);
  return { target: q.target, actor: q.actor, page: q.page, pageSize: q.pageSize };
}
