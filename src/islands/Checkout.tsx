/**
 * The pay button of one plan on /subscription. Asks the server for an order at the plan's
 * price, opens Razorpay Checkout (loaded on demand) or, in the embedded default, the local
 * sandbox dialog, and sends the result to the server to verify. Nothing is saved unless the
 * server verified the payment.
 */
import { useEffect, useRef, useState } from 'react';
import { setSessionUser } from './stores/session.ts';
import {
  CHECKOUT_SCRIPT_URL,
  PAYMENT_FAILED_MESSAGE,
  SDK_FAILED_MESSAGE,
  checkoutOptions,
  errorMessage,
  isCheckoutResult,
  isOrderResponse,
  type CheckoutResult,
  type OrderResponse,
} from '../lib/checkout.ts';

interface RazorpayCheckout {
  open(): void;
  on(event: 'payment.failed', handler: (response: unknown) => void): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: Record<string, unknown>) => RazorpayCheckout;
  }
}

interface Props {
  readonly plan: string;
  readonly planName: string;
  readonly priceText: string;
  /** The plan chosen on /pricing (`?plan=`): its pay button takes the focus. */
  readonly preselected?: boolean;
}

let scriptLoading: Promise<boolean> | undefined;

/** Loads Razorpay's Checkout script once; false when it cannot be loaded. */
function loadCheckoutScript(): Promise<boolean> {
  if (window.Razorpay) return Promise.resolve(true);
  scriptLoading ??= new Promise<boolean>((resolve) => {
    const script = document.createElement('script');
    script.src = CHECKOUT_SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve(Boolean(window.Razorpay));
    script.onerror = () => {
      script.remove();
      scriptLoading = undefined;
      resolve(false);
    };
    document.body.appendChild(script);
  });
  return scriptLoading;
}

async function postJson(url: string, body: unknown): Promise<{ status: number; data: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  const data: unknown = await response.json().catch(() => null);
  return { status: response.status, data };
}

/** The completion callback: keep the verified record locally, then go home. */
function completed(user: unknown): void {
  if (user && typeof user === 'object') setSessionUser(user as Parameters<typeof setSessionUser>[0], { subscribed: true });
  window.location.assign('/');
}

export default function Checkout({ plan, planName, priceText, preselected = false }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sandboxOrder, setSandboxOrder] = useState<OrderResponse | null>(null);
  // The server-rendered button stays disabled until React has hydrated it: a click before
  // that would do nothing.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const payButton = useRef<HTMLButtonElement>(null);
  // Focus once the button is enabled, so Enter pays for the plan chosen on /pricing.
  useEffect(() => {
    if (ready && preselected) payButton.current?.focus();
  }, [ready, preselected]);

  /** Razorpay's `handler` and the sandbox's Pay button both end here. */
  async function verify(result: CheckoutResult): Promise<void> {
    const { status, data } = await postJson('/api/payments/verify', result);
    if (status === 200 && data && typeof data === 'object' && 'user' in data) {
      completed((data as { user: unknown }).user);
      return;
    }
    setBusy(false);
    setError(errorMessage(data, 'We could not confirm this payment. Contact support for help.'));
  }

  function failed(): void {
    setBusy(false);
    alert(PAYMENT_FAILED_MESSAGE);
  }

  async function openRazorpay(order: OrderResponse): Promise<void> {
    if (!(await loadCheckoutScript()) || !window.Razorpay) {
      setBusy(false);
      alert(SDK_FAILED_MESSAGE);
      return;
    }
    const checkout = new window.Razorpay({
      ...checkoutOptions(order),
      handler: (response: unknown) => {
        if (isCheckoutResult(response)) void verify(response);
        else failed();
      },
      modal: { ondismiss: () => setBusy(false) },
    });
    checkout.on('payment.failed', failed);
    checkout.open();
  }

  async function start(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const { status, data } = await postJson('/api/makePayment', { plan });
      if (status === 401) {
        window.location.assign(`/register?plan=${encodeURIComponent(plan)}`);
        return;
      }
      if (status !== 200 || !isOrderResponse(data)) {
        setBusy(false);
        setError(errorMessage(data, 'We could not start the payment. Please try again.'));
        return;
      }
      if (data.mode === 'sandbox') setSandboxOrder(data);
      else await openRazorpay(data);
    } catch {
      setBusy(false);
      setError('We could not reach PolyIndex. Check your connection and try again.');
    }
  }

  async function sandboxOutcome(outcome: 'pay' | 'fail'): Promise<void> {
    const order = sandboxOrder;
    if (!order) return;
    setSandboxOrder(null);
    try {
      const { status, data } = await postJson('/api/payments/sandbox/complete', { order_id: order.id, outcome });
      if (outcome === 'pay' && status === 200 && isCheckoutResult(data)) await verify(data);
      else failed();
    } catch {
      failed();
    }
  }

  return (
    <div className="checkout">
      <button ref={payButton} type="button" className="btn btn-primary" onClick={() => void start()} disabled={busy || !ready} data-plan={plan} data-preselected={preselected ? 'true' : undefined}>
        {busy ? 'Please wait…' : `Pay ${priceText} for ${planName}`}
      </button>
      {error && (
        <p role="alert" className="checkout-error">
          {error}
        </p>
      )}
      {sandboxOrder && (
        <SandboxDialog
          order={sandboxOrder}
          onPay={() => void sandboxOutcome('pay')}
          onFail={() => void sandboxOutcome('fail')}
          onDismiss={() => {
            setSandboxOrder(null);
            setBusy(false);
          }}
        />
      )}
    </div>
  );
}

interface DialogProps {
  readonly order: OrderResponse;
  readonly onPay: () => void;
  readonly onFail: () => void;
  readonly onDismiss: () => void;
}

/** The embedded default's stand-in for Razorpay Checkout: a modal with Pay, Fail and Dismiss. */
function SandboxDialog({ order, onPay, onFail, onDismiss }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const payButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    payButton.current?.focus();
    return () => element?.close();
  }, []);

  const rupees = (order.amount / 100).toLocaleString('en-IN', { style: 'currency', currency: order.currency, maximumFractionDigits: 0 });
  const titleId = `sandbox-title-${order.id}`;

  return (
    <dialog
      ref={dialog}
      className="sandbox-checkout"
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        onDismiss();
      }}>
      <h2 id={titleId}>Sandbox checkout</h2>
      <p>
        {order.description}: <strong>{rupees}</strong>
      </p>
      <p className="muted">
        No money moves: this local stand-in for Razorpay signs its result like Razorpay, and the server verifies it the same way.
        Order <code>{order.id}</code>.
      </p>
      <div className="sandbox-actions">
        <button ref={payButton} type="button" className="btn btn-primary" onClick={onPay}>
          Pay
        </button>
        <button type="button" className="btn" onClick={onFail}>
          Fail
        </button>
        <button type="button" className="btn btn-ghost" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </dialog>
  );
}
