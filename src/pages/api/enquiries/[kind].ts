import type { APIRoute } from 'astro';
import { z } from 'astro/zod';
import { deliverEnquiry, enquirySchemas, isBot, isEnquiryKind } from '../../../server/enquiries.ts';
import { json, jsonError, parseOr400, readJson, sameOriginError } from '../../../server/http/responses.ts';
import { rateKeys, tooManyRequests } from '../../../server/mail/http.ts';
import { mailRateLimiter, operatorEmail, sendMail } from '../../../server/mail/index.ts';

const JsonObject = z.record(z.string(), z.unknown(), { error: 'Send a JSON object.' });

/** POST /api/enquiries/{kind}: a service, buy-sell or contact enquiry → the operator, and a confirmation to the sender. */
export const POST: APIRoute = async (context) => {
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
};
