/** POST /api/admin/users/{uid}/grant `{plan, expiresOn?: 'YYYY-MM-DD'}`: grants a plan until that day ends in India, or for the plan's duration. Audited. */
import { GrantBody, grantChange, userChangeEndpoint } from '../../../../../server/admin/userChanges.ts';

export const POST = userChangeEndpoint({ action: 'user.grant', body: GrantBody, change: grantChange });
