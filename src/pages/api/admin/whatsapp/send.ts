/** POST /api/admin/whatsapp/send `{from, text}`: the sandbox phone writes to the site as Meta would. */
export { sandboxPhoneSend as POST } from '../../../../server/delivery/endpoints.ts';
