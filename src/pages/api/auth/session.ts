import { signInHandler } from '../../../server/auth/endpoints.ts';
import { sendWelcome } from '../../../server/delivery/welcome.ts';
import { auth, store } from '../../../server/runtime.ts';

/** Sign-in: ID token → session cookie, and a welcome mail for a new account (see signInHandler). */
export const POST = signInHandler({ auth, store, onCreated: sendWelcome });
