/** What a person reads when sign-in fails, by Firebase Auth error code. */
const MESSAGES: Record<string, string> = {
  'auth/wrong-password': 'Wrong e-mail or password.',
  'auth/invalid-credential': 'Wrong e-mail or password.',
  'auth/invalid-login-credentials': 'Wrong e-mail or password.',
  'auth/user-not-found': 'There is no account with this e-mail. Create one instead.',
  'auth/email-already-in-use': 'An account with this e-mail already exists. Sign in instead.',
  'auth/too-many-requests': 'Too many attempts. Please wait a few minutes and try again.',
  'auth/invalid-phone-number': 'That phone number is not valid. Use the international form, e.g. +91 98765 43210.',
  'auth/missing-phone-number': 'Enter your phone number.',
  'auth/invalid-verification-code': 'That code is not right. Check the SMS and try again.',
  'auth/missing-verification-code': 'Enter the code from the SMS.',
  'auth/code-expired': 'That code has expired. Ask for a new one.',
  'auth/network-request-failed': 'Network problem: check your connection and try again.',
  'auth/weak-password': 'Choose a password of at least 6 characters.',
  'auth/invalid-email': 'That e-mail address is not valid.',
  'auth/missing-password': 'Enter your password.',
  'auth/user-disabled': 'This account has been disabled. Contact support.',
  'auth/popup-closed-by-user': 'The Google window was closed before signing in.',
  'auth/popup-blocked': 'The browser blocked the Google window. Allow pop-ups and try again.',
  'auth/captcha-check-failed': 'The reCAPTCHA check failed. Please try again.',
  'auth/quota-exceeded': 'Too many SMS requests. Please try again later.',
};

export const GENERIC_AUTH_ERROR = 'Something went wrong. Please try again.';

export function authErrorMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  return MESSAGES[code] ?? GENERIC_AUTH_ERROR;
}
