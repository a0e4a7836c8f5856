/**
 * POST /api/alerts/revisions `{product, producer?, channels}` → 201: a producer revision alert
 * ("any revision by a producer on PP", or by one producer), with the plan rules and channel
 * checks of every alert (./http.ts). The alert fires for revisions the desk enters after it is
 * set (src/lib/delivery/revisionAlerts.ts).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'astro/zod';
import { INITIAL_ALERT_STATE } from '../../lib/delivery/alerts.ts';
import { revisionTargetId, revisionTargetProblem } from '../../lib/delivery/revisionAlerts.ts';
import type { EndpointHandler } from '../edge/endpoint.ts';
import { json, jsonError, readSignedInPost } from '../http/responses.ts';
import type { AlertRecord } from '../store/delivery.ts';
import { alertChannels, alertView, forbidden, newAlertRefusal, rightsOf, signedIn } from './http.ts';
import { deliveryDeps } from './index.ts';

export const RevisionAlertBody = z.object({
  product: z.string({ error: 'Choose a product, e.g. PP.' }).trim().min(1, 'Choose a product, e.g. PP.').max(20, 'That is not a product producers list.'),
  /** Left out (or null): any producer. */
  producer: z.string({ error: 'producer must be a producer id, e.g. reliance, or left out for any producer.' }).trim().max(30, 'That is not a producer PolyIndex lists.').nullable().optional(),
  channels: alertChannels,
});

export const postRevisionAlert: EndpointHandler = async ({ locals, request }) => {
  const input = await readSignedInPost(request, signedIn(locals), RevisionAlertBody);
  if (!input.ok) return input.response;
  const { session, data } = input;
  if (!rightsOf(session).alerts) return forbidden('alerts');
  const target = { product: data.product, producer: data.producer ? data.producer : null };
  const problem = revisionTargetProblem(target);
  if (problem) return jsonError(400, 'invalid_input', problem.message, problem.field);
  const refused = await newAlertRefusal(session, data.channels, 'product');
  if (refused) return refused;
  const deps = await deliveryDeps();
  const now = deps.now();
  const alert: AlertRecord = {
    id: `al_${randomUUID().replaceAll('-', '')}`,
    uid: session.uid,
    instrument: revisionTargetId(target),
    kind: 'revision',
    value: 0,
    channels: data.channels as AlertRecord['channels'],
    ...INITIAL_ALERT_STATE,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await deps.store.createAlert(alert);
  return json({ alert: alertView(alert) }, 201);
};
