/** /api/unsubscribe?token=…: one-click unsubscribe (RFC 8058) by a signed link; GET leads to the page that asks. */
import { getUnsubscribe, postUnsubscribe } from '../../server/delivery/http.ts';

export const GET = getUnsubscribe;
export const POST = postUnsubscribe;
