// Team seats in Chromium (issue 21): a Platinum owner invites a colleague from /account; the
// colleague opens the mailed link, signs in with the invited address, joins and reads a Premium
// screen; the owner removes the seat and the colleague's next request is refused. The colleague
// has Basic of their own (a new account's trial would open the screen anyway): the seat opens
// what Basic does not, and the refusal after removal is Basic's paywall.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { baseURL, E2E_DATA_DIR } from './env.ts';
import { ensureAccount, signIn, signInAs, signInNewAccountByApi, uniqueEmail } from './helpers/auth.ts';
import { hydrated } from './helpers/hydration.ts';

/** The uid of the account signed in on `request`. */
async function uidOf(request: APIRequestContext): Promise<string> {
  const { user } = (await (await request.get('/api/session')).json()) as { user: { uid: string } | null };
  expect(user).not.toBeNull();
  return user!.uid;
}

/** An administrator grants `plan` to `uid` (the admin API, as the admin's user page does). */
async function grant(browser: Browser, uid: string, plan: string): Promise<void> {
  const admin = await browser.newContext({ baseURL });
  try {
    await signInAs(admin, 'admin@polyindex.test');
    const response = await admin.request.post(`/api/admin/users/${uid}/grant`, { data: { plan }, headers: { Origin: baseURL } });
    expect(response.status(), await response.text()).toBe(200);
  } finally {
    await admin.close();
  }
}

/** The link of the invitation mailed to `to` (the site's outbox, parsed as a mail client would). */
async function invitationLink(to: string): Promise<string> {
  const outbox = join(E2E_DATA_DIR, 'outbox');
  let link: string | undefined;
  await expect
    .poll(async () => {
      for (const file of readdirSync(outbox).filter((name) => name.endsWith('.eml'))) {
        const raw = readFileSync(join(outbox, file), 'utf8');
        if (!raw.includes(to)) continue;
        const mail = await simpleParser(raw);
        if (mail.to && !JSON.stringify(mail.to).includes(to)) continue;
        link = /https?:\/\/\S+\/account\/join\?invite=[^\s"<>]+/.exec(mail.text ?? '')?.[0];
        if (link) return true;
      }
      return false;
    })
    .toBe(true);
  return new URL(link!).pathname + new URL(link!).search;
}

test('an owner invites a colleague, the colleague reads a Premium screen, the owner removes the seat and the next request is refused', async ({ page, browser }) => {
  test.slow(); // two accounts, a mail, two grants
  const ownerEmail = uniqueEmail('team-owner');
  await signInNewAccountByApi(page, ownerEmail);
  await grant(browser, await uidOf(page.request), 'Platinum');

  await page.goto('/account');
  const team = page.getByTestId('team-card');
  await expect(team.getByTestId('seats-used')).toHaveText('1 of 5');
  await hydrated(page, page.getByTestId('team'));
  const colleagueEmail = uniqueEmail('team-colleague');
  await team.getByLabel('Invite a colleague by e-mail').fill(colleagueEmail);
  await team.getByRole('button', { name: 'Send invitation' }).click();
  await expect(team.getByTestId('team-notice')).toHaveText(`Invitation sent to ${colleagueEmail}.`);
  await expect(team.getByTestId('team-member')).toContainText(['Invited']);
  await expect(team.getByTestId('seats-used')).toHaveText('2 of 5');
  const joinPath = await invitationLink(colleagueEmail);

  const colleagueContext = await browser.newContext({ baseURL });
  try {
    const colleague = await colleagueContext.newPage();
    // Not signed in: the link asks for a sign-in first and comes back.
    await colleague.goto(joinPath);
    await expect(colleague).toHaveURL(/\/register\?next=%2Faccount%2Fjoin%3Finvite%3D/);
    await ensureAccount(colleagueContext.request, colleagueEmail);
    await signIn(colleague, colleagueEmail, undefined, joinPath);
    await expect(colleague).toHaveURL(/\/account\/join\?invite=/);
    await grant(browser, await uidOf(colleague.request), 'Basic');
    // Basic alone does not open the crude charts.
    await colleague.goto('/crude/Naphtha');
    await expect(colleague).toHaveURL(/\/\?locked=feedstock$/);

    await colleague.goto(joinPath);
    await expect(colleague.getByTestId('join')).toContainText(`invites ${colleagueEmail} to use their PolyIndex Platinum plan`);
    await colleague.getByTestId('join-button').click();
    await expect(colleague.getByTestId('joined')).toContainText(`You are on ${ownerEmail}'s Platinum plan`);
    const crude = await colleague.goto('/crude/Naphtha');
    expect(crude?.status()).toBe(200);
    await expect(colleague).toHaveURL(/\/crude\/Naphtha$/);
    await colleague.goto('/account');
    await expect(colleague.getByTestId('seat-line')).toContainText(`You use ${ownerEmail}'s Platinum plan (a team seat)`);
    await expect(colleague.getByTestId('team-card')).toHaveCount(0);
    await expect(colleague.getByRole('banner').getByTestId('subscribed')).toContainText('Team · Platinum');

    // The owner sees the colleague joined, and removes the seat.
    await page.reload();
    const member = team.getByTestId('team-member').filter({ hasText: colleagueEmail });
    await expect(member).toHaveAttribute('data-state', 'held');
    await hydrated(page, page.getByTestId('team'));
    await member.getByRole('button', { name: `Remove ${colleagueEmail}` }).click();
    await expect(team.getByTestId('team-notice')).toHaveText(`${colleagueEmail} is removed: their access ends now.`);
    await expect(team.getByTestId('team-member')).toHaveCount(0);

    // The colleague's next request is refused: a page and the data API.
    await colleague.goto('/crude/Naphtha');
    await expect(colleague).toHaveURL(/\/\?locked=feedstock$/);
    expect((await colleague.request.get('/api/feedstock?name=Naphtha&country=japan')).status()).toBe(403);
  } finally {
    await colleagueContext.close();
  }
});
