/** POST /api/admin/users/{uid}/extend `{days}` or `{until: 'YYYY-MM-DD'}`: extends the current plan. Audited. */
import { ExtendBody, extendChange, userChangeEndpoint } from '../../../../../server/admin/userChanges.ts';

export const POST = userChangeEndpoint({ action: 'user.extend', body: ExtendBody, change: extendChange });
