/**
 * The mail forms' endpoints, public (anyone may write to the desk): `/api/sendMail` and the
 * enquiry forms. Not an open relay: only an administrator's `to` is honoured (and only for a
 * user's address); every other message goes to the operator with the sender as Reply-To. Both
 * share one rate limiter per IP and user, and refuse a post from another origin.
 */
import { z } from 'astro/zod';
import { endpoint } from '../edge/endpoint.ts';
import { deliverEnquiry, enquirySchemas, isBot, isEnquiryKind } from '../enquiries.ts';
import { json, jsonError, parseOr400, readJson, sameOriginError } from '../http/responses.ts';
import { emailField, rateKeys, textField, tooManyRequests } from './http.ts';
import { mailRateLimiter, operatorEmail, renderMail, sendMail } from './index.ts';
import { routeMessage } from './relay.ts';

const SendMail = z.object({
  to: emailField('To').optional(),
  subject: textField('Subject', 200),
  content: textField('Content', 5000),
  /** Anonymous senders say where to answer; a signed-in sender's address comes from the session. */
  replyTo: emailField('Reply-to address').optional(),
  name: z.string().trim().max(100, 'Name is too long.').optional(),
});

/** POST /api/sendMail {to, subject, content}: a message to the PolyIndex desk. */
export const sendMessage = endpoint('public', async (context) => {
  const { request, locals, store } = context;
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  const input = await readJson(request, SendMail);
  if (!input.ok) return input.response;

  const session = locals.session;
  const route = await routeMessage(
    { email: session?.email ?? null, admin: session?.entitlement === 'admin' },
    input.data,
    operatorEmail,
    async (email) => (await (await store()).findUserBy('email', email)) !== null,
  );
  if (!route.ok) return jsonError(400, 'invalid_input', route.message, route.field);

  const limit = mailRateLimiter.hit(rateKeys(context));
  if (!limit.ok) return tooManyRequests(limit);

  const { subject, content, name } = input.data;
  const sender = [name, route.replyTo].filter(Boolean).join(' · ') || 'PolyIndex';
  const mail = route.toOperator
    ? renderMail({
        subject: `[Website] ${subject}`,
        heading: `Message from ${sender}`,
        blocks: [
          { rows: [['From', sender], ['Signed in', session ? 'yes' : 'no'], ['Subject', subject]] },
          { quote: content },
        ],
        footer: 'Sent through the PolyIndex website. Reply to this e-mail to answer the sender.',
      })
    : renderMail({ subject, heading: subject, blocks: [{ paragraph: content }], footer: 'You receive this e-mail as a PolyIndex user.' });

  try {
    const sent = await sendMail({ ...mail, to: route.to, replyTo: route.replyTo });
    return json({ sent: true, messageId: sent.messageId, recipient: route.toOperator ? 'operator' : 'user' });
  } catch (error) {
    console.error('[mail] /api/sendMail failed', error);
    return jsonError(502, 'mail_failed', 'The message could not be sent. Please try again later.');
  }
});

const JsonObject = z.record(z.string(), z.unknown(), { error: 'Send a JSON object.' });

/** POST /api/enquiries/{kind}: a service, buy-sell or contact enquiry → the operator, and a confirmation to the sender. */
export const sendEnquiry = endpoint('public', async (context) => {
  const { request, params } = context;
  const kind = params['kind'];
  if (!isEnquiryKind(kind)) return jsonError(404, 'not_found', 'There is no such enquiry form.');
  const crossOrigin = sameOriginError(request);
  if (crossOrigin) return crossOrigin;
  const body = await readJson(request, JsonObject);
  if (!body.ok) return body.response;

  // Bots are counted like everyone and told "received"; nothing is sent for them.
  const limit = mailRateLimiter.hit(rateKeys(context));
  if (!limit.ok) return tooManyRequests(limit);
  if (isBot(body.data)) return json({ received: true, kind });

  const input = parseOr400(enquirySchemas[kind], body.data);
  if (!input.ok) return input.response;
  try {
    const { confirmed } = await deliverEnquiry(kind, input.data, { operator: operatorEmail, send: sendMail });
    return json({ received: true, kind, confirmation: confirmed });
  } catch (error) {
    console.error(`[mail] ${kind} enquiry failed`, error);
    return jsonError(502, 'mail_failed', 'Your enquiry could not be sent. Please try again later or call us.');
  }
});
