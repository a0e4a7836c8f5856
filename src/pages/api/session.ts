import type { APIRoute } from 'astro';
import { hasActiveSubscription, renewalDue } from '../../lib/access/policy.ts';
import { trialEndsOn } from '../../lib/trial.ts';
import { json } from '../../server/http/responses.ts';
import { adminPanelUrl } from '../../server/runtime.ts';
import { publicUserRecord } from '../../server/users.ts';

/** The visitor's record (no secrets) and what it may see, for islands on static pages. */
export const GET: APIRoute = ({ locals }) => {
  const session = locals.session;
  if (!session) return json({ user: null, entitlement: 'anonymous' }, { headers: { 'Cache-Control': 'private, no-store' } });
  const record = session.record;
  const now = new Date();
  return json(
    {
      user: record ? publicUserRecord(record) : null,
      entitlement: session.entitlement,
      admin: record?.role === 'admin',
      subscribed: hasActiveSubscription(record, now),
      trial: session.inTrial ? { active: true, endsOn: trialEndsOn(record) } : null,
      renewalDue: renewalDue(record, now),
      adminPanelUrl: record?.role === 'admin' ? adminPanelUrl : null,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  );
};
