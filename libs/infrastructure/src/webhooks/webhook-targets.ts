import { WebhookTargets } from '@svc/application';
import { UnsafeWebhookUrlError } from '@svc/domain';
import { addressesOf, isPublicAddress } from './address-policy';

/** The longest address an endpoint may have (its column's width). */
const MAX_URL_LENGTH = 2000;

/** The parsed address of an endpoint, or the reason it cannot be one. */
export function parseWebhookUrl(url: string, allowInsecure: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeWebhookUrlError('must be an absolute https:// URL');
  }
  if (url.length > MAX_URL_LENGTH) throw new UnsafeWebhookUrlError(`must be at most ${MAX_URL_LENGTH} characters`);
  const schemes = allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol))
    throw new UnsafeWebhookUrlError(allowInsecure ? 'must be an http(s):// URL' : 'must be an https:// URL');
  return parsed;
}

/**
 * Registration's check of an address (CONTRACT 20): https, no user or
 * password in it (whatever WEBHOOK_ALLOW_INSECURE says: every role that reads
 * endpoints would see them, and Basic credentials belong in the receiver's
 * own check of the signature), and every address its host resolves to now
 * public; with WEBHOOK_ALLOW_INSECURE, http and any address. Sending checks
 * the address again when it connects (WebhookHttpTransport).
 */
export class CheckedWebhookTargets extends WebhookTargets {
  constructor(private readonly allowInsecure: boolean) {
    super();
  }

  async check(url: string): Promise<void> {
    const parsed = parseWebhookUrl(url, this.allowInsecure);
    if (parsed.username !== '' || parsed.password !== '') {
      throw new UnsafeWebhookUrlError('must not carry a user or password (user:password@); put a token in the query instead');
    }
    if (this.allowInsecure) return;
    let addresses: string[];
    try {
      addresses = await addressesOf(parsed.hostname);
    } catch {
      throw new UnsafeWebhookUrlError(`${parsed.hostname} does not resolve`);
    }
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a))) {
      throw new UnsafeWebhookUrlError(`${parsed.hostname} resolves to a loopback, private, link-local or reserved address`);
    }
  }
}
