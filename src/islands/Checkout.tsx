/**
 * The pay button of one plan (on /subscription, and renew/upgrade on /account). First the
 * billing details for the GST invoice (legal name, address, PIN, state, optional GSTIN; the saved
 * ones prefilled), then the server quotes and creates the order, opens Razorpay Checkout (loaded
 * on demand) or, in the embedded default, the local sandbox dialog, and the result goes back to
 * the server to verify. Nothing is saved unless the server verified the payment; the server
 * checks the billing details and says which field is wrong.
 */
import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { GST_STATES } from '../lib/gst/states.ts';
import { formatPaise } from '../lib/numbers.ts';
import { setSessionUser } from './stores/session.ts';
import {
  CHECKOUT_SCRIPT_URL,
  PAYMENT_FAILED_MESSAGE,
  SDK_FAILED_MESSAGE,
  checkoutOptions,
  errorMessage,
  isCheckoutResult,
  isOrderResponse,
  type BillingForm,
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

const EMPTY_BILLING: BillingForm = { legalName: '', address: '', pin: '', stateCode: '', gstin: '' };

interface Props {
  readonly plan: string;
  readonly planName: string;
  readonly priceText: string;
  /** The plan chosen on /pricing (`?plan=`): its pay button takes the focus. */
  readonly preselected?: boolean;
  /** The button's words; "Pay {price} for {plan}" unless given. */
  readonly label?: string;
  /** The billing details saved at the last checkout, to prefill the form. */
  readonly billing?: BillingForm | null;
  /** Where to go once the payment is verified. */
  readonly returnTo?: string;
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

/** The completion callback: keep the verified record locally, then go on (home, or back to /account). */
function completed(user: unknown, returnTo: string): void {
  if (user && typeof user === 'object') setSessionUser(user as Parameters<typeof setSessionUser>[0], { subscribed: true });
  window.location.assign(returnTo);
}

/** The field an error answer names (`billing.gstin` → `gstin`), when it is one of the form's. */
function billingFieldOf(data: unknown): keyof BillingForm | null {
  const field = data && typeof data === 'object' && 'error' in data ? (data as { error?: { field?: unknown } }).error?.field : undefined;
  if (typeof field !== 'string' || !field.startsWith('billing.')) return null;
  const name = field.slice('billing.'.length);
  return name in EMPTY_BILLING ? (name as keyof BillingForm) : null;
}

export default function Checkout({ plan, planName, priceText, preselected = false, label, billing = null, returnTo = '/' }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sandboxOrder, setSandboxOrder] = useState<OrderResponse | null>(null);
  const [billingOpen, setBillingOpen] = useState(false);
  const [details, setDetails] = useState<BillingForm>(billing ?? EMPTY_BILLING);
  const [fieldError, setFieldError] = useState<{ field: keyof BillingForm | null; message: string } | null>(null);
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
      completed((data as { user: unknown }).user, returnTo);
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

  /** The pay button: the billing details come first, prefilled with the saved ones. */
  function start(): void {
    setError(null);
    setFieldError(null);
    setBillingOpen(true);
  }

  async function order(form: BillingForm): Promise<void> {
    setBusy(true);
    setFieldError(null);
    try {
      const billingBody = { legalName: form.legalName, address: form.address, pin: form.pin, stateCode: form.stateCode, gstin: form.gstin.trim() || null };
      const { status, data } = await postJson('/api/makePayment', { plan, billing: billingBody });
      if (status === 401) {
        window.location.assign(`/register?plan=${encodeURIComponent(plan)}`);
        return;
      }
      if (status === 400 && billingFieldOf(data) !== null) {
        setBusy(false);
        setFieldError({ field: billingFieldOf(data), message: errorMessage(data, 'Check the billing details.') });
        return;
      }
      setBillingOpen(false);
      if (status !== 200 || !isOrderResponse(data)) {
        setBusy(false);
        setError(errorMessage(data, 'We could not start the payment. Please try again.'));
        return;
      }
      if (data.mode === 'sandbox') setSandboxOrder(data);
      else await openRazorpay(data);
    } catch {
      setBusy(false);
      setBillingOpen(false);
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
      <button ref={payButton} type="button" className="btn btn-primary" onClick={start} disabled={busy || !ready} data-plan={plan} data-preselected={preselected ? 'true' : undefined}>
        {busy ? 'Please wait…' : (label ?? `Pay ${priceText} for ${planName}`)}
      </button>
      {error && (
        <p role="alert" className="checkout-error">
          {error}
        </p>
      )}
      {billingOpen && (
        <BillingDialog
          title={label ?? `Pay ${priceText} for ${planName}`}
          details={details}
          busy={busy}
          problem={fieldError}
          onChange={setDetails}
          onSubmit={() => void order(details)}
          onDismiss={() => {
            setBillingOpen(false);
            setBusy(false);
          }}
        />
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

  // Paise shown when there are any (a prorated upgrade): "₹9,515.07".
  const rupees = formatPaise(order.amount);
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

interface BillingDialogProps {
  readonly title: string;
  readonly details: BillingForm;
  readonly busy: boolean;
  readonly problem: { readonly field: keyof BillingForm | null; readonly message: string } | null;
  readonly onChange: (details: BillingForm) => void;
  readonly onSubmit: () => void;
  readonly onDismiss: () => void;
}

/** The billing details for the GST invoice, asked before every payment (prefilled once given). */
function BillingDialog({ title, details, busy, problem, onChange, onSubmit, onDismiss }: BillingDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const first = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    first.current?.focus();
    return () => element?.close();
  }, []);

  const set = (field: keyof BillingForm) => (event: { currentTarget: { value: string } }) => onChange({ ...details, [field]: event.currentTarget.value });
  const errorOf = (field: keyof BillingForm) =>
    problem?.field === field ? (
      <span className="form-error" id={`${id}-${field}-error`} role="alert">
        {problem.message}
      </span>
    ) : null;
  const described = (field: keyof BillingForm) => (problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}-error` } : {});
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <dialog
      ref={dialog}
      className="billing-checkout"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onDismiss();
      }}>
      <form className="form-stack" onSubmit={submit} noValidate>
        <h2 id={`${id}-title`}>Billing details</h2>
        <p className="form-note">For your GST tax invoice: {title}.</p>
        <label className="field">
          Legal name
          <input ref={first} name="legalName" autoComplete="organization" required maxLength={120} value={details.legalName} onChange={set('legalName')} {...described('legalName')} />
          {errorOf('legalName')}
        </label>
        <label className="field">
          Billing address
          <textarea name="address" autoComplete="street-address" required rows={3} value={details.address} onChange={set('address')} {...described('address')} />
          {errorOf('address')}
        </label>
        <div className="billing-row">
          <label className="field">
            PIN code
            <input name="pin" inputMode="numeric" autoComplete="postal-code" required maxLength={6} value={details.pin} onChange={set('pin')} {...described('pin')} />
            {errorOf('pin')}
          </label>
          <label className="field">
            State
            <select name="stateCode" required value={details.stateCode} onChange={set('stateCode')} {...described('stateCode')}>
              <option value="">Choose…</option>
              {GST_STATES.map((state) => (
                <option key={state.code} value={state.code}>
                  {state.name}
                </option>
              ))}
            </select>
            {errorOf('stateCode')}
          </label>
        </div>
        <label className="field">
          GSTIN <span className="muted">(optional, to claim input tax credit)</span>
          <input name="gstin" autoCapitalize="characters" spellCheck={false} maxLength={15} value={details.gstin} onChange={set('gstin')} {...described('gstin')} />
          {errorOf('gstin')}
        </label>
        {problem && problem.field === null && (
          <p className="form-error" role="alert">
            {problem.message}
          </p>
        )}
        <div className="sandbox-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Please wait…' : 'Continue to payment'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onDismiss}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
