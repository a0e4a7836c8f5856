/**
 * Who a message written on the site goes to. Not an open relay: only an administrator chooses
 * the recipient (and only among users); everyone else writes to the operator, whatever `to`
 * says, with their own address as Reply-To.
 */

export interface SenderFacts {
  /** null for an anonymous visitor. */
  readonly email: string | null;
  readonly admin: boolean;
}

export type Route =
  | { readonly ok: true; readonly to: string; readonly replyTo: string | undefined; readonly toOperator: boolean }
  | { readonly ok: false; readonly field: 'to' | 'replyTo'; readonly message: string };

export async function routeMessage(
  sender: SenderFacts,
  input: { readonly to?: string | undefined; readonly replyTo?: string | undefined },
  operator: string,
  isUser: (email: string) => Promise<boolean>,
): Promise<Route> {
  if (sender.admin && input.to) {
    if (!(await isUser(input.to))) return { ok: false, field: 'to', message: 'Administrators can write to PolyIndex users only.' };
    return { ok: true, to: input.to, replyTo: input.replyTo ?? sender.email ?? undefined, toOperator: false };
  }
  // A signed-in sender is who the cookie says; a given reply-to is only used for anonymous visitors.
  const replyTo = sender.email ?? input.replyTo;
  if (!replyTo) return { ok: false, field: 'replyTo', message: 'Give an e-mail address we can reply to.' };
  return { ok: true, to: operator, replyTo, toOperator: true };
}
