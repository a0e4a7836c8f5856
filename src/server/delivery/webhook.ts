/**
 * The WhatsApp webhook as Meta calls it: `GET` subscribes (hub.challenge for the right verify
 * token), `POST` carries messages, signed `X-Hub-Signature-256: sha256=HMAC_SHA256(app secret,
 * raw body)`. A body whose signature does not hold is refused before it is parsed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'astro/zod';

/** The signature header Meta sends for this body. */
export const signatureOf = (appSecret: string, rawBody: Uint8Array | string): string => `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

/** Constant time; false for a missing or malformed header. */
export function signatureHolds(appSecret: string, rawBody: Uint8Array, header: string | null): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const expected = Buffer.from(signatureOf(appSecret, rawBody).slice('sha256='.length), 'hex');
  const given = Buffer.from(header.slice('sha256='.length).toLowerCase(), 'hex');
  return timingSafeEqual(expected, given);
}

/** `GET` verification: the challenge to echo, or null (403) for a wrong mode or token. */
export function subscriptionChallenge(params: URLSearchParams, verifyToken: string): string | null {
  const mode = params.get('hub.mode');
  const token = params.get('hub.verify_token') ?? '';
  const challenge = params.get('hub.challenge');
  if (mode !== 'subscribe' || !challenge || challenge.length > 256) return null;
  const [a, b] = [Buffer.from(token), Buffer.from(verifyToken)];
  return a.length === b.length && timingSafeEqual(a, b) ? challenge : null;
}

const MessageSchema = z.object({
  from: z.string().regex(/^[1-9]\d{7,14}$/, 'from must be a WhatsApp number.'),
  id: z.string().min(1).max(256),
  timestamp: z.string().regex(/^\d{1,12}$/, 'timestamp must be Unix seconds.').optional(),
  type: z.string().min(1).max(40),
  text: z.object({ body: z.string().max(4096) }).optional(),
});

/** The part of Meta's payload we read (other fields are ignored; statuses carry no action here). */
export const WebhookPayload = z.object({
  object: z.literal('whatsapp_business_account', { error: 'object must be whatsapp_business_account.' }),
  entry: z
    .array(
      z.object({
        id: z.string().max(64).optional(),
        changes: z
          .array(
            z.object({
              field: z.string().max(64),
              value: z.object({
                messaging_product: z.literal('whatsapp').optional(),
                metadata: z.object({ phone_number_id: z.string().max(64).optional() }).optional(),
                messages: z.array(MessageSchema).max(100).optional(),
                statuses: z.array(z.unknown()).max(1000).optional(),
              }),
            }),
          )
          .max(100),
      }),
    )
    .max(100),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** The messages of a payload, in order. */
export const messagesOf = (payload: WebhookPayload) =>
  payload.entry.flatMap((entry) => entry.changes.filter((change) => change.field === 'messages').flatMap((change) => change.value.messages ?? []));

/** A webhook body as Meta would send it for one text message (the sandbox phone posts this). */
export function inboundTextPayload({ from, name, id, text, at, phoneNumberId }: { from: string; name: string; id: string; text: string; at: Date; phoneNumberId: string }) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'sandbox-waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550000000', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name }, wa_id: from }],
              messages: [{ from, id, timestamp: String(Math.floor(at.getTime() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  };
}
