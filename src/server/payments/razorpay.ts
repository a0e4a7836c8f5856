/**
 * The real gateway: orders through the `razorpay` SDK, signatures checked locally with the
 * key secret and the webhook secret.
 */
import Razorpay from 'razorpay';
import { GatewayError, type CreateOrderInput, type GatewayOrder, type PaymentGateway } from './gateway.ts';
import { verifyPaymentSignature, verifyWebhookSignature } from './signature.ts';

export interface RazorpayConfig {
  readonly keyId: string;
  readonly keySecret: string;
  /** Unset: webhooks cannot be verified and are refused. */
  readonly webhookSecret?: string | undefined;
  /** Milliseconds before an unanswered API call fails; the SDK sets none. */
  readonly timeoutMs?: number | undefined;
  /** Tests point the SDK at a fake server on loopback; production keeps Razorpay's own URL. */
  readonly baseUrl?: string | undefined;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** The part of the SDK's axios instance we configure (its type is not exported). */
interface SdkHttp {
  defaults: { baseURL?: string; timeout?: number };
  interceptors: { response: { use(onFulfilled: null, onRejected: (error: unknown) => unknown): number } };
}

/** The SDK rejects with plain objects `{statusCode, error:{code, description}}`. */
interface SdkError {
  statusCode?: unknown;
  error?: { code?: unknown; description?: unknown } | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The SDK's own error handler reads `error.response.status` and crashes with a TypeError when
 * there was no response (timeout, refused connection). This interceptor gives such failures a
 * response-shaped error first, so the SDK rejects with its usual plain object and a clear cause.
 */
function describeTransportFailure(error: unknown): unknown {
  if (isObject(error) && error['response']) return Promise.reject(error);
  const code = isObject(error) ? String(error['code'] ?? '') : '';
  const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT';
  const message = timedOut
    ? 'Razorpay did not answer in time.'
    : `Razorpay could not be reached${code ? ` (${code})` : ''}.`;
  return Promise.reject({ response: { status: 0, data: { error: { code: timedOut ? 'timeout' : 'network', description: message } } } });
}

export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (isObject(error) && ('statusCode' in error || 'error' in error)) {
    const { statusCode, error: detail } = error as SdkError;
    const status = typeof statusCode === 'number' && statusCode > 0 ? statusCode : null;
    const code = typeof detail?.code === 'string' ? detail.code : 'unknown';
    const description = typeof detail?.description === 'string' ? detail.description : 'no description';
    return new GatewayError(`Razorpay refused the order${status ? ` (HTTP ${status})` : ''}: ${description}`, code, status);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GatewayError(`Razorpay call failed: ${message}`, 'unknown', null);
}

export function createRazorpayGateway(config: RazorpayConfig): PaymentGateway {
  const sdk = new Razorpay({ key_id: config.keyId, key_secret: config.keySecret });
  const http = (sdk.api as unknown as { rq: SdkHttp }).rq;
  http.defaults.timeout = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (config.baseUrl) http.defaults.baseURL = config.baseUrl;
  http.interceptors.response.use(null, describeTransportFailure);

  return {
    mode: 'razorpay',
    keyId: config.keyId,

    async createOrder({ amountPaise, currency, receipt, notes }: CreateOrderInput): Promise<GatewayOrder> {
      let order: unknown;
      try {
        order = await sdk.orders.create({ amount: amountPaise, currency, receipt, notes: { ...notes } });
      } catch (error) {
        throw toGatewayError(error);
      }
      if (!isObject(order) || typeof order['id'] !== 'string' || !order['id']) {
        throw new GatewayError('Razorpay answered without an order id.', 'bad_response', null);
      }
      if (order['amount'] !== amountPaise) {
        // Never hand Checkout an order for another amount than the plan's price.
        throw new GatewayError(`Razorpay created an order for ${String(order['amount'])} paise, not ${amountPaise}.`, 'bad_response', null);
      }
      return { id: order['id'], amount: amountPaise, currency: String(order['currency'] ?? currency), receipt: String(order['receipt'] ?? receipt) };
    },

    verifyPayment(orderId, paymentId, signature) {
      return verifyPaymentSignature(config.keySecret, orderId, paymentId, signature);
    },

    verifyWebhook(rawBody, signature) {
      return config.webhookSecret ? verifyWebhookSignature(config.webhookSecret, rawBody, signature) : null;
    },

    // The cheapest authenticated read: one order of the list (checks the keys too).
    async ping() {
      try {
        await sdk.orders.all({ count: 1 });
      } catch (error) {
        throw toGatewayError(error);
      }
    },
  };
}
