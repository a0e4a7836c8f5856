/** POST /api/admin/users/{uid}/revoke `{}`: ends the plan now (kept as lastPlan). Audited. */
import { RevokeBody, revokeChange, userChangeEndpoint } from '../../../../../server/admin/userChanges.ts';

export const POST = userChangeEndpoint({ action: 'user.revoke', body: RevokeBody, change: revokeChange });
