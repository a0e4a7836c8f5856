import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { json, jsonError, readJson, sameOriginError } from '../../server/http/responses.ts';
import { mailRateLimiter, operatorEmail, renderMail, sendMail } from '../../server/mail/index.ts';
import { emailField, rateKeys, textField, tooManyRequests } from '../../server/mail/http.ts';
import { routeMessage } from '../../server/mail/relay.ts';
import { store } from '../../server/runtime.ts';

const SendMail = z.object({
  to: emailField('To').optional(),
  subject: textField('Subject', 200),
  content: textField('Content', 5000),
  /** Anonymous senders say where to answer; a signed-in sender's address comes from the session. */
  replyTo: emailField('Reply-to address').optional(),
  name: z.string().trim().max(100, 'Name is too long.').optional(),
});

/**
 * POST /api/sendMail {to, subject, content}: a message to the PolyIndex desk. Not an open
 * relay: only an administrator's `to` is honoured (and only for a user's address); anyone
 * else's message goes to the operator with the sender as Reply-To.
 */
export const POST: APIRoute = async (context) => {
  const { request, locals } = context;
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
};
