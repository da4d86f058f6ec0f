import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { type LookupFunction, isIP } from 'node:net';
import { type WebhookRequest, WebhookTransport } from '@svc/application';
import { ATTEMPT_TIMEOUT_MS, type AttemptOutcome } from '@svc/domain';
import { Webhook } from 'standardwebhooks';
import { RefusedAddressError, isPublicAddress, safeLookup } from './address-policy';
import { parseWebhookUrl } from './webhook-targets';

/** How much of an answer's body is read (and dropped): enough to let the connection close cleanly. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends one attempt (CONTRACT 20): signed with the `standardwebhooks`
 * package (`webhook-id`, `webhook-timestamp`, `webhook-signature` with one
 * `v1,` signature per secret that signs now), on an agent whose DNS lookup
 * refuses any non-public address when connecting (an IP literal is checked
 * before, as Node makes no lookup for one), unless WEBHOOK_ALLOW_INSECURE.
 * A 2xx answer succeeds; any other, a redirect included (never followed),
 * no answer within the attempt timeout (WEBHOOK_ATTEMPT_TIMEOUT_MS), or a refused address fails. Neither
 * the secrets nor the signature are ever logged or put in an error.
 */
export class WebhookHttpTransport extends WebhookTransport {
  private readonly https: HttpsAgent;
  private readonly http: HttpAgent;

  constructor(
    private readonly allowInsecure: boolean,
    private readonly timeoutMs: number = ATTEMPT_TIMEOUT_MS,
  ) {
    super();
    const lookup = allowInsecure ? undefined : (safeLookup as unknown as LookupFunction);
    this.https = new HttpsAgent({ keepAlive: false, lookup });
    this.http = new HttpAgent({ keepAlive: false, lookup });
  }

  /** The `webhook-signature` header: a signature by each secret, space-separated. */
  static signatureOf(request: Pick<WebhookRequest, 'id' | 'timestamp' | 'body' | 'secrets'>): string {
    return request.secrets.map((secret) => new Webhook(secret).sign(request.id, request.timestamp, request.body)).join(' ');
  }

  async send(request: WebhookRequest): Promise<AttemptOutcome> {
    let url: URL;
    try {
      url = parseWebhookUrl(request.url, this.allowInsecure);
    } catch (error) {
      return { ok: false, statusCode: null, error: (error as { hint?: string }).hint ?? 'invalid url' };
    }
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (!this.allowInsecure && isIP(host) !== 0 && !isPublicAddress(host)) {
      return { ok: false, statusCode: null, error: new RefusedAddressError(host).message };
    }
    const body = Buffer.from(request.body, 'utf8');
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': 'svc-webhooks/1',
      'webhook-id': request.id,
      'webhook-timestamp': String(Math.floor(request.timestamp.getTime() / 1000)),
      'webhook-signature': WebhookHttpTransport.signatureOf(request),
    };
    const secure = url.protocol === 'https:';
    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const send = secure ? httpsRequest : httpRequest;
      const req = send(url, { method: 'POST', headers, agent: secure ? this.https : this.http }, (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () =>
          settle(
            status >= 200 && status < 300
              ? { ok: true, statusCode: status }
              : {
                  ok: false,
                  statusCode: status,
                  error: status >= 300 && status < 400 ? `redirect (${status}) not followed` : `answered ${status}`,
                },
          );
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      const timer = setTimeout(() => {
        req.destroy();
        settle({ ok: false, statusCode: null, error: `no answer within ${this.timeoutMs / 1000} s` });
      }, this.timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        const refused = error instanceof RefusedAddressError || error.code === 'EWEBHOOKADDRESS';
        settle({ ok: false, statusCode: null, error: refused ? error.message : `could not send: ${error.code ?? error.message}` });
      });
      req.end(body);
    });
  }
}
