/** A session on a given site without the UI: the emulator's password sign-in, then our session endpoint. */
import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, type Site } from '../sites.ts';

export async function startSessionByApi(request: APIRequestContext, site: Site, email: string, password = DEMO_PASSWORD): Promise<void> {
  const signedIn = await request.post(`http://${site.emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`, {
    data: { email, password, returnSecureToken: true },
  });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const { idToken } = (await signedIn.json()) as { idToken: string };
  const session = await request.post(`${site.baseURL}/api/auth/session`, { data: { idToken }, headers: { Origin: site.baseURL } });
  expect(session.ok(), await session.text()).toBe(true);
}
