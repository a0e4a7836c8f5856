import type { APIRoute } from 'astro';
import { hasActiveSubscription, renewalDue } from '../../lib/access/policy.ts';
import { trialEndsOn } from '../../lib/trial.ts';
import { json } from '../../server/http/responses.ts';
import { UnavailableError, unavailableJson } from '../../server/outages.ts';
import { adminPanelUrl } from '../../server/runtime.ts';
import { publicUserRecord } from '../../server/users.ts';

/**
 * The visitor's record (no secrets) and what it may see, for islands on static pages. 503
 * `auth_unavailable` or `store_unavailable` (with Retry-After) when the session cookie could not
 * be checked: that visitor is not anonymous, and must not be shown as signed out.
 */
export const GET: APIRoute = ({ locals }) => {
  if (locals.sessionUnchecked) {
    const response = unavailableJson(new UnavailableError(locals.sessionUnchecked, 'The session cannot be checked.'));
    response.headers.set('Cache-Control', 'private, no-store');
    return response;
  }
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
