import { signInHandler } from '../../../server/auth/endpoints.ts';
import { auth, store } from '../../../server/runtime.ts';

/** Sign-in: ID token → session cookie (see signInHandler). */
export const POST = signInHandler({ auth, store });
