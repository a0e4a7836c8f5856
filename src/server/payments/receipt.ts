/**
 * The buyer's receipt after a successful payment: one log line, and an e-mail to the buyer
 * through the mail module (SMTP, or the outbox in the embedded default). A phone-only account
 * has no address: the log line is all there is.
 */
import { findPlan, formatRupees } from '../../lib/plans.ts';
import { renderMail, sendMail } from '../mail/index.ts';
import type { OrderRecord } from '../store/payments.ts';
import type { UserRecord } from '../store/users.ts';

export interface Receipt {
  readonly user: UserRecord;
  readonly order: OrderRecord;
}

const validUntil = (expiresAt: string | null | undefined): string =>
  expiresAt ? new Date(expiresAt).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' }) : '-';

export async function sendReceipt({ user, order }: Receipt): Promise<void> {
  console.info(
    `[receipt] to=${user.email ?? user.phone ?? user.uid} plan=${order.plan} amount=${formatRupees(order.amount)} ` +
      `order=${order.id} payment=${order.paymentId ?? '-'} valid-until=${user.expiresAt ?? '-'}`,
  );
  if (!user.email) return;
  const plan = findPlan(order.plan)?.name ?? order.plan;
  const mail = renderMail({
    subject: `Your PolyIndex receipt: ${plan} plan`,
    heading: user.displayName ? `Thank you, ${user.displayName}` : 'Thank you for subscribing',
    blocks: [
      { paragraph: `Your payment was received and your ${plan} plan is active.` },
      {
        rows: [
          ['Plan', plan],
          ['Amount paid', formatRupees(order.amount)],
          ['Valid until', validUntil(user.expiresAt)],
          ['Order', order.id],
          ['Payment', order.paymentId ?? '-'],
          ['Receipt no.', order.receipt],
        ],
      },
      { paragraph: 'Keep this e-mail for your records. For a GST invoice or any question, reply to this e-mail.' },
    ],
    footer: 'You receive this e-mail because you bought a PolyIndex plan.',
  });
  await sendMail({ ...mail, to: user.email });
}
