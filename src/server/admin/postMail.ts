/**
 * POST /api/admin/posts/{id}/test-mail `{}`: the post (any state: a draft too) rendered as the
 * mail readers would get (src/server/posts/mail.ts), sent to the editor's own address only.
 */
import type { EndpointHandler } from '../edge/endpoint.ts';
import { z } from 'astro/zod';
import { jsonError, json, readJson } from '../http/responses.ts';
import { sendMail } from '../mail/index.ts';
import { postMail } from '../posts/mail.ts';
import { store } from '../runtime.ts';
import { requireEditor } from './guard.ts';

export const sendTestMail: EndpointHandler = async (context) => {
  const gate = requireEditor(context);
  if (!gate.ok) return gate.response;
  const input = await readJson(context.request, z.object({}).strict());
  if (!input.ok) return input.response;
  const post = await (await store()).getPost(context.params['id'] ?? '');
  if (!post) return jsonError(404, 'unknown_post', 'There is no such post.', 'id');
  const to = gate.actor.email;
  if (!to) return jsonError(400, 'no_email', 'Your account has no e-mail address to send the test to.');
  const mail = postMail(post, context.site ?? new URL(context.url.origin));
  try {
    const sent = await sendMail({ to, subject: mail.subject, text: mail.text, html: mail.html });
    return json({ sent: true, to, messageId: sent.messageId });
  } catch (error) {
    console.error('[posts] test mail failed', error);
    return jsonError(502, 'mail_failed', 'The mail could not be sent.');
  }
};
