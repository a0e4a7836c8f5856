/** POST /api/enquiries/{kind}: a service, buy-sell or contact enquiry → the operator, and a confirmation to the sender. */
export { sendEnquiry as POST } from '../../../server/mail/endpoints.ts';
