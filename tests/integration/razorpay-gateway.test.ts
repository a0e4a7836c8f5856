/**
 * The real gateway adapter (`razorpay` SDK) against a fake Razorpay HTTP server on loopback:
 * what it sends, how refusals and silence come back.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/server/payments/gateway.ts';
import { createRazorpayGateway } from '../../src/server/payments/razorpay.ts';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

type Reply = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let reply: Reply;
const hanging = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
      reply(req, res, body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  seen = [];
});

const orderReply: Reply = (_req, res, body) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'order_FAKE1234567890', entity: 'order', status: 'created', amount_paid: 0, ...body }));
};

// A generous bound where the stand-in answers: a busy machine must not turn an answer into a timeout.
const gateway = (timeoutMs = 30_000) => createRazorpayGateway({ keyId: 'rzp_test_KEY', keySecret: 'key_secret_xyz', baseUrl, timeoutMs });

describe('the Razorpay adapter', () => {
  it('creates an order: POST /v1/orders with amount, currency, receipt, notes and Basic auth', async () => {
    reply = orderReply;
    const order = await gateway().createOrder({ amountPaise: 1_500_000, currency: 'INR', receipt: 'rcpt_1', notes: { uid: 'u1', plan: 'Premium' } });
    expect(order).toEqual({ id: 'order_FAKE1234567890', amount: 1_500_000, currency: 'INR', receipt: 'rcpt_1' });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/orders');
    expect(request!.contentType).toMatch(/application\/json/);
    expect(request!.body).toEqual({ amount: 1_500_000, currency: 'INR', receipt: 'rcpt_1', notes: { uid: 'u1', plan: 'Premium' } });
    expect(request!.authorization).toBe(`Basic ${Buffer.from('rzp_test_KEY:key_secret_xyz').toString('base64')}`);
  });

  it('turns an API error reply into a GatewayError with Razorpay\'s code and description', async () => {
    reply = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed', source: 'NA' } }));
    };
    const error = await gateway().createOrder({ amountPaise: 550_000, currency: 'INR', receipt: 'r', notes: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).gatewayCode).toBe('BAD_REQUEST_ERROR');
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toMatch(/Authentication failed/);
  });

  it('refuses an order the gateway made for another amount', async () => {
    reply = (_req, res, body) => orderReply(_req, res, { ...body, amount: 100 });
    await expect(gateway().createOrder({ amountPaise: 550_000, currency: 'INR', receipt: 'r', notes: {} })).rejects.toThrow(/100 paise/);
  });

  it('gives up on a server that never answers, with a clear timeout error', async () => {
    reply = (_req, res) => {
      hanging.add(res); // never answered
    };
    // The stand-in never answers: only the adapter's own 300 ms bound can end the call (its
    // error code says so), well inside the test's time however busy the machine is.
    const error = await gateway(300).createOrder({ amountPaise: 550_000, currency: 'INR', receipt: 'r', notes: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).gatewayCode).toBe('timeout');
    expect((error as GatewayError).message).toMatch(/did not answer in time/);
  });

  it('reports a refused connection as unreachable', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const error = await createRazorpayGateway({ keyId: 'k', keySecret: 's', baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 1_000 })
      .createOrder({ amountPaise: 550_000, currency: 'INR', receipt: 'r', notes: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).gatewayCode).toBe('network');
    expect((error as GatewayError).message).toMatch(/ECONNREFUSED/);
  });

  it('verifies checkout signatures with the key secret and webhooks with the webhook secret', async () => {
    const { createHmac } = await import('node:crypto');
    const g = createRazorpayGateway({ keyId: 'k', keySecret: 'key_secret', webhookSecret: 'wh_secret', baseUrl });
    const sig = createHmac('sha256', 'key_secret').update('order_1|pay_1').digest('hex');
    expect(g.verifyPayment('order_1', 'pay_1', sig)).toBe(true);
    expect(g.verifyPayment('order_1', 'pay_2', sig)).toBe(false);
    const body = '{"event":"order.paid"}';
    expect(g.verifyWebhook(body, createHmac('sha256', 'wh_secret').update(body).digest('hex'))).toBe(true);
    expect(g.verifyWebhook(body, createHmac('sha256', 'key_secret').update(body).digest('hex'))).toBe(false);
    expect(createRazorpayGateway({ keyId: 'k', keySecret: 's', baseUrl }).verifyWebhook(body, 'ab')).toBeNull();
  });
});
