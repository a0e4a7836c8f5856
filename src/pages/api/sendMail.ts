/** POST /api/sendMail {to, subject, content}: a message to the PolyIndex desk (not an open relay). */
export { sendMessage as POST } from '../../server/mail/endpoints.ts';
