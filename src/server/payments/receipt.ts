/**
 * The buyer's receipt after a successful payment. Until the mail module lands this is one log
 * line; the mail issue swaps the body of `sendReceipt` for an e-mail through src/server/mail.
 */
import { formatRupees } from '../../lib/plans.ts';
import type { OrderRecord } from '../store/payments.ts';
import type { UserRecord } from '../store/users.ts';

export interface Receipt {
  readonly user: UserRecord;
  readonly order: OrderRecord;
}

export async function sendReceipt({ user, order }: Receipt): Promise<void> {
  console.info(
    `[receipt] to=${user.email ?? user.phone ?? user.uid} plan=${order.plan} amount=${formatRupees(order.amount)} ` +
      `order=${order.id} payment=${order.paymentId ?? '-'} valid-until=${user.expiresAt ?? '-'}`,
  );
}
