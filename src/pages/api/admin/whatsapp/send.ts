/** POST /api/admin/whatsapp/send `{from, text}`: the sandbox phone writes to the site as Meta would. */
import { sandboxSend } from '../../../../server/delivery/routes.ts';

export const POST = sandboxSend;
