import type { APIRoute } from 'astro';
import { deliverEnquiry, enquirySchemas, isBot, isEnquiryKind } from '../../../server/enquiries.ts';
import { crossOriginRefused, isSameOrigin, jsonError, jsonResponse, parseOr400, readJsonBody } from '../../../server/http/responses.ts';
import { rateKeys, tooManyRequests } from '../../../server/mail/http.ts';
import { mailRateLimiter, operatorEmail, sendMail } from '../../../server/mail/index.ts';

/** POST /api/enquiries/{kind}: a service, buy-sell or contact enquiry → the operator, and a confirmation to the sender. */
export const POST: APIRoute = async (context) => {
  const { request, url, params } = context;
  const kind = params['kind'];
  if (!isEnquiryKind(kind)) return jsonError(404, 'not_found', 'There is no such enquiry form.');
  if (!isSameOrigin(request, url)) return crossOriginRefused();
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;

  // Bots are counted like everyone and told "received"; nothing is sent for them.
  const limit = mailRateLimiter.hit(rateKeys(context));
  if (!limit.ok) return tooManyRequests(limit);
  if (typeof body.body === 'object' && body.body !== null && isBot(body.body as Record<string, unknown>)) {
    return jsonResponse({ received: true, kind });
  }

  const input = parseOr400(enquirySchemas[kind], body.body);
  if (!input.ok) return input.response;
  try {
    const { confirmed } = await deliverEnquiry(kind, input.data, { operator: operatorEmail, send: sendMail });
    return jsonResponse({ received: true, kind, confirmation: confirmed });
  } catch (error) {
    console.error(`[mail] ${kind} enquiry failed`, error);
    return jsonError(502, 'mail_failed', 'Your enquiry could not be sent. Please try again later or call us.');
  }
};
