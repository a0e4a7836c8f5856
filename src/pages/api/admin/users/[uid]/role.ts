/** POST /api/admin/users/{uid}/role `{role: 'admin'|'user'}`: sets the role (never one's own admin role away). Audited. */
import { RoleBody, roleChange, userChangeEndpoint } from '../../../../../server/admin/userChanges.ts';

export const POST = userChangeEndpoint({ action: 'user.role', body: RoleBody, change: roleChange });
