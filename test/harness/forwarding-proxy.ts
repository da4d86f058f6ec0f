import { type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * A reverse proxy on 127.0.0.1 in front of the service, as a load balancer or
 * an ingress is: it forwards each request and its body, and APPENDS the
 * address of the peer it came from to whatever `X-Forwarded-For` the client
 * sent (nginx's `$proxy_add_x_forwarded_for`, AWS ALB, Google's load
 * balancers). The client's own entries stay in front, where a client can
 * write anything.
 */
export class ForwardingProxy {
  private server?: Server;
  port = 0;

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    const target = new URL(this.target);
    this.server = createServer((incoming, outgoing) => this.forward(target, incoming, outgoing));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private forward(target: URL, incoming: IncomingMessage, outgoing: ServerResponse): void {
    const peer = incoming.socket.remoteAddress ?? '';
    const earlier = incoming.headers['x-forwarded-for'];
    const headers: IncomingHttpHeaders = {
      ...incoming.headers,
      'x-forwarded-for': earlier === undefined || earlier === '' ? peer : `${String(earlier)}, ${peer}`,
      connection: 'close',
    };
    const upstream = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers, agent: false },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  }
}
