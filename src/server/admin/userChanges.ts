/**
 * The admin's changes to a user record (role, grant, extend, revoke) as JSON endpoints: one
 * factory for the shared path (guard → uid → JSON body → zod → audited store update → answer),
 * the request schemas, and the pure change each one applies (src/lib/admin/planChanges.ts).
 */
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { extendPlan, grantPlan, MAX_PLAN_DAYS, revokePlan, ROLES, setRole, type Change, type Refusal } from '../../lib/admin/planChanges.ts';
import { parseIsoDate } from '../../lib/dates.ts';
import { findPlan } from '../../lib/plans.ts';
import { json, jsonError, readJson } from '../http/responses.ts';
import { store } from '../runtime.ts';
import type { AuditActor } from '../store/audit.ts';
import type { UserRecord } from '../store/users.ts';
import { publicUserRecord } from '../users.ts';
import { requireAdmin } from './guard.ts';

export type UserAction = 'user.role' | 'user.grant' | 'user.extend' | 'user.revoke';

const Uid = z.string().trim().min(1, 'Name a user.').max(128, 'That uid is too long.');

/** An optional calendar day from a date input: `YYYY-MM-DD`, real; empty means "not given". */
const optionalDay = (label: string) =>
  z
    .string({ error: `${label} must be a date (YYYY-MM-DD).` })
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || parseIsoDate(v) !== null, `${label} is not a real date (YYYY-MM-DD).`);

export const RoleBody = z.object({
  role: z.enum(ROLES, { error: 'Role must be admin, editor or user.' }),
});

export const GrantBody = z.object({
  plan: z
    .string({ error: 'Choose a plan.' })
    .trim()
    .refine((id) => findPlan(id) !== undefined, 'There is no such plan.'),
  expiresOn: optionalDay('The expiry'),
});

export const ExtendBody = z
  .object({
    days: z
      .union([z.number(), z.string().trim().regex(/^-?\d+$/, 'Days must be a whole number.').transform(Number)], { error: 'Days must be a whole number.' })
      .optional()
      .refine((d) => d === undefined || (Number.isInteger(d) && d >= 1), 'Days must be a whole number of at least 1.')
      .refine((d) => d === undefined || d <= MAX_PLAN_DAYS, `Days may be at most ${MAX_PLAN_DAYS}.`),
    until: optionalDay('The new expiry'),
  })
  .refine((b) => (b.days === undefined) !== (b.until === undefined), { message: 'Give either a number of days or a date, not both.', path: ['days'] });

export const RevokeBody = z.object({}).strict();

interface EndpointSpec<S extends z.ZodType> {
  readonly action: UserAction;
  readonly body: S;
  /** The change to apply to the record as it is inside the transaction. */
  readonly change: (input: z.infer<S>, facts: { readonly actor: AuditActor; readonly now: Date }) => (record: UserRecord) => Change;
}

const refusal = (reason: Refusal): Response => jsonError(reason.status, reason.code, reason.message, reason.field);

/** POST /api/admin/users/{uid}/{action}: the whole admin write path, the same for every action. */
export function userChangeEndpoint<S extends z.ZodType>(spec: EndpointSpec<S>): EndpointHandler {
  return async (context) => {
    const gate = requireAdmin(context);
    if (!gate.ok) return gate.response;
    const uid = Uid.safeParse(context.params['uid']);
    if (!uid.success) return jsonError(400, 'invalid_input', uid.error.issues[0]?.message ?? 'Name a user.', 'uid');
    const input = await readJson(context.request, spec.body);
    if (!input.ok) return input.response;

    const now = new Date();
    const result = await (await store()).adminUpdateUser<Refusal>({
      uid: uid.data,
      change: spec.change(input.data, { actor: gate.actor, now }),
      actor: gate.actor,
      action: spec.action,
      now,
    });
    switch (result.kind) {
      case 'not_found':
        return jsonError(404, 'unknown_user', 'There is no user with this uid.', 'uid');
      case 'refused':
        return refusal(result.reason);
      case 'unchanged':
        return json({ changed: false, user: publicUserRecord(result.record) });
      case 'updated':
        return json({ changed: true, user: publicUserRecord(result.after), auditId: result.entry.id });
    }
  };
}

export const roleChange = (input: z.infer<typeof RoleBody>, { actor }: { actor: AuditActor }) => (record: UserRecord) =>
  setRole(record, input.role, actor.uid);

export const grantChange = (input: z.infer<typeof GrantBody>, { now }: { now: Date }) => (_record: UserRecord) =>
  grantPlan(findPlan(input.plan)!, input.expiresOn, now);

export const extendChange = (input: z.infer<typeof ExtendBody>, { now }: { now: Date }) => (record: UserRecord) =>
  extendPlan(record, input.days !== undefined ? { days: input.days } : { until: input.until! }, now);

export const revokeChange = (_input: z.infer<typeof RevokeBody>, { now }: { now: Date }) => (record: UserRecord) => revokePlan(record, now);
