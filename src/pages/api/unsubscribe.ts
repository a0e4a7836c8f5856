/** POST /api/unsubscribe?token=…: one-click unsubscribe (RFC 8058) by a signed link. */
import { postUnsubscribe } from '../../server/delivery/http.ts';

export const POST = postUnsubscribe;
