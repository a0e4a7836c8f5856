/** /api/unsubscribe?token=…: one-click unsubscribe (RFC 8058) by a signed link; GET leads to the page that asks. */
export { unsubscribeLink as GET, unsubscribe as POST } from '../../server/delivery/endpoints.ts';
