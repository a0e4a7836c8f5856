/**
 * POST /api/payments/webhook: Razorpay's events, the source of truth when the browser never
 * came back. The raw body is checked against the webhook secret before it is parsed.
 */
import type { APIRoute } from 'astro';
import { json, jsonContentTypeError, jsonError, readText } from '../../../server/http/responses.ts';
import { paymentsRuntime } from '../../../server/payments/index.ts';
import { applyWebhook, webhookEventId, webhookSchema } from '../../../server/payments/service.ts';

export const POST: APIRoute = async ({ request }) => {
  // Razorpay posts application/json; anything else is not one of its events.
  const notJson = jsonContentTypeError(request);
  if (notJson) return notJson;
  const body = await readText(request);
  if (!body.ok) return body.response;
  const signature = request.headers.get('x-razorpay-signature');
  if (!signature) return jsonError(400, 'bad_signature', 'The X-Razorpay-Signature header is missing.');

  const runtime = await paymentsRuntime();
  const valid = runtime.gateway.verifyWebhook(body.text, signature);
  if (valid === null) return jsonError(503, 'webhook_not_configured', 'RAZORPAY_WEBHOOK_SECRET is not set.');
  if (!valid) return jsonError(400, 'bad_signature', 'The webhook signature does not verify.');

  let raw: unknown;
  try {
    raw = JSON.parse(body.text);
  } catch {
    return jsonError(400, 'invalid_body', 'The webhook body is not valid JSON.');
  }
  const parsed = webhookSchema.safeParse(raw);
  if (!parsed.success) return jsonError(400, 'invalid_input', parsed.error.issues[0]?.message ?? 'Unexpected webhook body.');

  const eventId = webhookEventId(request.headers.get('x-razorpay-event-id'), parsed.data, body.text);
  const status = await applyWebhook(runtime, parsed.data, eventId);
  return json({ status, event: parsed.data.event, id: eventId });
};
