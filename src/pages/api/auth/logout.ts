import { signOutHandler } from '../../../server/auth/endpoints.ts';
import { auth } from '../../../server/runtime.ts';

/** Sign-out: revokes the user's sessions everywhere and clears the cookie (see signOutHandler). */
export const POST = signOutHandler({ auth });
