import { Injectable } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import { Clock, LinkExpiredError, LinkInvalidError, ModelLinkSigner } from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import {
  StoredFileAddressing,
  modelFileLinkPayload,
  modelFileLinkQuery,
  modelFilePathOf,
  parseModelFileLinkQuery,
} from '@svc/presentation';
import { modelFileBaseFor, serviceOriginOf } from '../../http/model-file-base';

/**
 * Signed, expiring links to the service's own model store (CONTRACT 7): made
 * for the keys' views and redirects, checked by the file route. The format is
 * libs/presentation's `model-file-link`; the MAC is the ModelLinkSigner's
 * (HMAC-SHA256 under MODEL_URL_SECRET); the time is the Clock's.
 */
@Injectable()
export class ModelFileLinks {
  constructor(
    private readonly signer: ModelLinkSigner,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * How stored files are addressed for a key: MODEL_HOST's base, unsigned, when
   * set; else a link to the origin the request reached, signed now, valid MODEL_URL_TTL_SECONDS.
   */
  addressingFor(request: FastifyRequest): StoredFileAddressing {
    if (this.config.models.host !== null) return modelFileBaseFor(this.config, request);
    const origin = serviceOriginOf(request);
    const expires = this.expiryOfNewLinks();
    return (storedFile) => this.signedUrl(origin, storedFile, expires);
  }

  /** A link to `storedFile` under `origin`, valid until `expires` (Unix seconds; default: MODEL_URL_TTL_SECONDS from now). */
  signedUrl(origin: string, storedFile: string, expires: number = this.expiryOfNewLinks()): string {
    const path = modelFilePathOf(storedFile);
    return `${origin}${path}?${modelFileLinkQuery(expires, this.signer.sign(modelFileLinkPayload(path, expires)))}`;
  }

  private expiryOfNewLinks(): number {
    return Math.floor(this.clock.now().getTime() / 1000) + this.config.models.urlTtlSeconds;
  }

  /**
   * Checks a request for a stored file: LINK_INVALID when the link is unsigned,
   * malformed or altered; LINK_EXPIRED only for a correctly signed link past
   * its expiry.
   */
  check(storedFile: string, query: Readonly<Record<string, unknown>> | undefined): void {
    const link = parseModelFileLinkQuery(query);
    if (link === null) throw new LinkInvalidError();
    if (!this.signer.verify(modelFileLinkPayload(modelFilePathOf(storedFile), link.expires), link.signature)) throw new LinkInvalidError();
    if (link.expires * 1000 <= this.clock.now().getTime()) throw new LinkExpiredError();
  }
}
