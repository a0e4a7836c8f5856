import { signOutHandler } from '../../../server/auth/endpoints.ts';
import { auth } from '../../../server/runtime.ts';

/**
 * Sign-out: revokes the user's sessions everywhere and clears the cookie (see signOutHandler).
 * Its `Clear-Site-Data: "cache"` also drops the browser's HTTP cache of this site; the service
 * worker's private copies go on the same sign-out (src/sw/sw.ts).
 */
export const POST = signOutHandler({ auth });
