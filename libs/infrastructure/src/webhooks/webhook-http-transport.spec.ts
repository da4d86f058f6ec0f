import { type IncomingHttpHeaders, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhookHttpTransport } from './webhook-http-transport';
import { CheckedWebhookTargets } from './webhook-targets';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_' + Buffer.from('another secret of 32 bytes......').toString('base64');

/** A receiver on 127.0.0.1 answering `status` (with a redirect to the metadata address for a 3xx). */
async function receiver(status: number) {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (status >= 300 && status < 400) res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const request = (url: string) => ({ url, id: 'msg_1', timestamp: new Date(), body: '{"type":"webhook.test"}', secrets: [SECRET] });

describe('WebhookHttpTransport', () => {
  it('sends a Standard Webhooks message (one signature per secret) and takes a 2xx as success', async () => {
    const r = await receiver(204);
    try {
      const outcome = await new WebhookHttpTransport(true).send({ ...request(`http://127.0.0.1:${r.port}/h`), secrets: [SECRET, OTHER] });
      expect(outcome).toEqual({ ok: true, statusCode: 204 });
      const [message] = r.received;
      expect(message.headers['webhook-id']).toBe('msg_1');
      expect(String(message.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(new Webhook(SECRET).verify(message.body, message.headers as Record<string, string>)).toEqual({ type: 'webhook.test' });
      expect(new Webhook(OTHER).verify(message.body, message.headers as Record<string, string>)).toEqual({ type: 'webhook.test' });
    } finally {
      await r.close();
    }
  });

  it('takes a redirect as a failure and does not follow it', async () => {
    const r = await receiver(302);
    try {
      const outcome = await new WebhookHttpTransport(true).send(request(`http://127.0.0.1:${r.port}/h`));
      expect(outcome).toEqual({ ok: false, statusCode: 302, error: 'redirect (302) not followed' });
      expect(r.received).toHaveLength(1);
    } finally {
      await r.close();
    }
  });

  it('takes a 500 and a refused connection as failures', async () => {
    const r = await receiver(500);
    const transport = new WebhookHttpTransport(true);
    try {
      expect(await transport.send(request(`http://127.0.0.1:${r.port}/h`))).toEqual({ ok: false, statusCode: 500, error: 'answered 500' });
    } finally {
      await r.close();
    }
    expect(await transport.send(request(`http://127.0.0.1:${r.port}/h`))).toMatchObject({ ok: false, statusCode: null });
  });

  describe('without WEBHOOK_ALLOW_INSECURE, refuses before connecting', () => {
    const transport = new WebhookHttpTransport(false);
    it.each([
      ['loopback', 'https://127.0.0.1:1/h'],
      ['a private address', 'https://10.20.30.40/h'],
      ['the metadata address', 'https://169.254.169.254/latest'],
      ['an IPv6 metadata address', 'https://[fd00:ec2::254]/'],
      ['an IPv4-mapped private address', 'https://[::ffff:10.0.0.1]/'],
      ['an IPv4-compatible loopback (::/96)', 'https://[::127.0.0.1]/'],
      ['an IPv4-compatible metadata address (::/96)', 'https://[::a9fe:a9fe]/'],
      ['an address in ::/8', 'https://[::1:0:0:0]/'],
    ])('%s', async (_, url) => {
      const outcome = await transport.send(request(url));
      expect(outcome).toMatchObject({
        ok: false,
        statusCode: null,
        error: expect.stringContaining('loopback, private, link-local or reserved'),
      });
    });

    it('a name that resolves to loopback, checked by the agent when connecting (the receiver never sees it)', async () => {
      const r = await receiver(204);
      try {
        const outcome = await transport.send(request(`https://localhost:${r.port}/h`));
        expect(outcome).toMatchObject({
          ok: false,
          statusCode: null,
          error: 'localhost resolves to a loopback, private, link-local or reserved address',
        });
        expect(r.received).toHaveLength(0);
      } finally {
        await r.close();
      }
    });

    it('plain http', async () => {
      expect(await transport.send(request('http://example.com/h'))).toMatchObject({ ok: false, error: 'url: must be an https:// URL' });
    });
  });
});

describe('CheckedWebhookTargets', () => {
  it('refuses non-https and non-public addresses unless insecure targets are allowed', async () => {
    const safe = new CheckedWebhookTargets(false);
    for (const url of [
      'http://example.com/',
      'https://127.0.0.1/',
      'https://10.0.0.1/',
      'https://169.254.169.254/',
      'https://localhost/',
      'nonsense',
    ]) {
      await expect(safe.check(url)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    }
    await expect(new CheckedWebhookTargets(true).check('http://127.0.0.1:8080/hooks')).resolves.toBeUndefined();
    await expect(new CheckedWebhookTargets(true).check('ftp://127.0.0.1/')).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    for (const allowInsecure of [false, true]) {
      await expect(new CheckedWebhookTargets(allowInsecure).check('https://u:p@93.184.216.34/')).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        hint: expect.stringContaining('must not carry a user or password'),
      });
    }
  });
});
