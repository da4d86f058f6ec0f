import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { request } from './http';

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** What the receiver answers: a status, or `hold` (never answers: the request stays open until the receiver closes). */
export type ReceiverAnswer = number | 'hold';

/**
 * A real HTTP receiver of webhooks on 127.0.0.1 (the tests run the service
 * with WEBHOOK_ALLOW_INSECURE=true): keeps every request's headers and exact
 * body, and answers what `answer` says at the time.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: ReceiverAnswer = 204;
  private readonly held: ServerResponse[] = [];

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly url: string,
  ) {}

  static async start(path = '/hooks'): Promise<WebhookReceiver> {
    return WebhookReceiver.startOn(0, path);
  }

  /** On a given port (0: any free one), e.g. again on the port of a receiver that was closed. */
  static async startOn(port: number, path = '/hooks'): Promise<WebhookReceiver> {
    const self: { receiver?: WebhookReceiver } = {};
    const server = createServer((req, res) => {
      const receiver = self.receiver;
      if (!receiver) return res.destroy();
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const answer = receiver.answer;
        if (answer === 'hold') {
          receiver.held.push(res);
          return;
        }
        res.statusCode = answer;
        if (answer >= 300 && answer < 400) res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const bound = (server.address() as AddressInfo).port;
    self.receiver = new WebhookReceiver(server, `http://127.0.0.1:${bound}${path}`);
    return self.receiver;
  }

  /** The received bodies, parsed. */
  messages(): Array<{ type: string; timestamp: string; data: Record<string, unknown> }> {
    return this.received.map((r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> });
  }

  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((r) => (JSON.parse(r.body) as { type: string }).type === type);
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Every event type an endpoint can subscribe to, as CONTRACT 20 lists them (written out here, not taken from the service). */
export const ALL_EVENTS = [
  'key.issued',
  'key.revoked',
  'key.rotated',
  'key.expiring',
  'quota.warning',
  'quota.exhausted',
  'model.published',
  'model.deleted',
];

/**
 * Waits until the service at `baseUrl` has nothing left to send: its outbox depth (the
 * `svc_webhook_outbox_depth` metric: events not yet fanned out plus deliveries pending) is 0.
 * After it, what was delivered is final, so an "exactly once" check counts the delivery rows
 * and the messages received instead of waiting a while for a second copy.
 */
export async function outboxSettled(baseUrl: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const metrics = await request(baseUrl, 'GET', '/metrics');
    if (/^svc_webhook_outbox_depth 0$/m.test(metrics.text)) return;
    if (Date.now() > deadline) throw new Error(`the webhook outbox at ${baseUrl} did not empty within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
