/**
 * A loopback TCP proxy a test can cut and restore: what an outage of the service behind it
 * looks like to our code, without touching the service itself. It also counts the HTTP
 * requests that pass, so a test can say what a call costs.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * `open`: forward. `refuse`: nothing listens (connection refused). `reset`: accept, then
 * reset (what a dying load balancer does). `hang`: accept and never answer (a timeout).
 * Every mode but `open` also ends the connections already open.
 */
export type ProxyMode = 'open' | 'refuse' | 'reset' | 'hang';

export interface TcpProxy {
  /** `127.0.0.1:port`, to hand to a client as the service's address. */
  readonly host: string;
  /** HTTP requests forwarded since start (or the last `resetCount`). */
  readonly requests: number;
  resetCount(): void;
  setMode(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

const REQUEST_LINE = /(?:^|\r\n)(?:GET|POST|PUT|PATCH|DELETE) \/\S* HTTP\/1\.[01]\r\n/g;

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const [targetHost, targetPort] = target.split(':') as [string, string];
  let mode: ProxyMode = 'open';
  let requests = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };

  const server: Server = createServer((client) => {
    track(client);
    if (mode === 'reset') return void client.resetAndDestroy();
    if (mode === 'hang') return; // accepted, read, never answered
    const upstream = connect(Number(targetPort), targetHost);
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('data', (chunk: Buffer) => {
      requests += chunk.toString('latin1').match(REQUEST_LINE)?.length ?? 0;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;

  return {
    host: `127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    resetCount: () => void (requests = 0),
    async setMode(next) {
      const wasListening = server.listening;
      mode = next;
      if (next !== 'open') for (const socket of sockets) socket.destroy();
      if (next === 'refuse' && wasListening) await new Promise<void>((resolve) => server.close(() => resolve()));
      if (next !== 'refuse' && !wasListening) await listen(port);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
