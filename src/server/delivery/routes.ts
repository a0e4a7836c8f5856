/**
 * The machine-facing delivery handlers: Meta's webhook (`/api/whatsapp/webhook`) and the sandbox
 * phone's send (`/api/admin/whatsapp/send`, loopback sandbox only). Declared in ./endpoints.ts.
 */
import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { whatsappNumberOf } from '../../lib/delivery/phone.ts';
import { MAX_BOT_TEXT } from '../../lib/delivery/priceBot.ts';
import { requireAdmin } from '../admin/guard.ts';
import { json, jsonContentTypeError, jsonError, parseOr400, readBytesUpTo, readJson, MAX_BODY_BYTES } from '../http/responses.ts';
import { handleInbound } from './bot.ts';
import { deliveryDeps, SANDBOX_PHONE_NUMBER_ID, sandboxPhoneDir, webhookAppSecret, webhookVerifyToken, whatsappMode } from './index.ts';
import { inboundTextPayload, messagesOf, signatureHolds, signatureOf, subscriptionChallenge, WebhookPayload } from './webhook.ts';

/** GET /api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=…&hub.challenge=… */
export const verifyWebhook: EndpointHandler = ({ url }) => {
  const token = webhookVerifyToken();
  if (!token) return jsonError(503, 'not_configured', 'WHATSAPP_VERIFY_TOKEN is not set.');
  const challenge = subscriptionChallenge(url.searchParams, token);
  return challenge === null
    ? jsonError(403, 'forbidden', 'The verify token does not match.')
    : new Response(challenge, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
};

/** POST /api/whatsapp/webhook: 415 unless JSON, 401 unless X-Hub-Signature-256 holds for the raw body; then every message is handled once. */
export const receiveWebhook: EndpointHandler = async ({ request }) => {
  const secret = webhookAppSecret();
  if (!secret) return jsonError(503, 'not_configured', 'WHATSAPP_APP_SECRET is not set: webhooks cannot be verified.');
  // Meta posts its notifications as application/json (as Razorpay does): anything else is not one, and is not read.
  const notJson = jsonContentTypeError(request);
  if (notJson) return notJson;
  const raw = await readBytesUpTo(request, MAX_BODY_BYTES, 'The webhook body is too large.');
  if (!raw.ok) return raw.response;
  if (!signatureHolds(secret, raw.bytes, request.headers.get('x-hub-signature-256'))) return jsonError(401, 'bad_signature', 'The X-Hub-Signature-256 header does not match the body.');
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(raw.bytes).toString('utf8'));
  } catch {
    return jsonError(400, 'invalid_body', 'The request body is not valid JSON.');
  }
  const payload = parseOr400(WebhookPayload, body);
  if (!payload.ok) return payload.response;
  const deps = await deliveryDeps();
  const outcomes = [];
  for (const message of messagesOf(payload.data)) {
    outcomes.push(await handleInbound(deps, { from: message.from, id: message.id, type: message.type, text: message.text?.body ?? null }));
  }
  return json({ received: true, handled: outcomes });
};

// ---- the sandbox phone (embedded default, loopback only) ---------------------------------

export const SandboxSend = z.object({
  from: z.string({ error: 'Give the phone number you write from.' }).max(30, 'That is not a phone number.'),
  text: z.string({ error: 'Type a message.' }).trim().min(1, 'Type a message.').max(MAX_BOT_TEXT, `At most ${MAX_BOT_TEXT} characters.`),
});

export interface SandboxInbound {
  readonly id: string;
  readonly at: string;
  readonly from: string;
  readonly text: string;
}

const inboundLog = () => join(sandboxPhoneDir, 'inbound.jsonl');

/** What the sandbox phone sent, oldest first (optionally from one number). */
export async function sandboxInbound(from?: string): Promise<SandboxInbound[]> {
  let text: string;
  try {
    text = await readFile(inboundLog(), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as SandboxInbound];
      } catch {
        return [];
      }
    })
    .filter((m) => !from || m.from === from);
}

/**
 * POST /api/admin/whatsapp/send `{from, text}`: the sandbox phone types as a subscriber. The
 * message becomes the webhook Meta would send, signed with the sandbox's app secret, and is
 * posted to this site's own webhook over HTTP: the production code path, end to end. "Own" is
 * `ownOrigin`: the server's loopback HOST and PORT (./endpoints.ts), never the request's Host
 * header (which a client chooses).
 */
export const sandboxSendTo = (ownOrigin: () => string): EndpointHandler => async (context) => {
  const gate = requireAdmin(context);
  if (!gate.ok) return gate.response;
  if (whatsappMode !== 'sandbox') return jsonError(404, 'not_found', 'The sandbox phone exists only without a WhatsApp Business account.');
  const input = await readJson(context.request, SandboxSend);
  if (!input.ok) return input.response;
  const from = whatsappNumberOf(input.data.from);
  if (!from) return jsonError(400, 'invalid_input', 'That is not a phone number: give it with the country code, e.g. +91 98200 12345.', 'from');
  const at = new Date();
  const id = `wamid.sandbox-in.${randomUUID()}`;
  await mkdir(sandboxPhoneDir, { recursive: true });
  await appendFile(inboundLog(), `${JSON.stringify({ id, at: at.toISOString(), from, text: input.data.text } satisfies SandboxInbound)}\n`, { mode: 0o600 });
  const body = JSON.stringify(inboundTextPayload({ from, name: 'Sandbox phone', id, text: input.data.text, at, phoneNumberId: SANDBOX_PHONE_NUMBER_ID }));
  let response: Response;
  try {
    response = await fetch(new URL('/api/whatsapp/webhook', ownOrigin()), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signatureOf(webhookAppSecret()!, body) },
      body,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return jsonError(502, 'webhook_failed', `The webhook could not be reached: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (!response.ok) return jsonError(502, 'webhook_failed', `The webhook answered ${response.status}.`);
  return json({ sent: true, id, from });
};
