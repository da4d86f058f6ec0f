import { Injectable } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import {
  Clock,
  LinkExpiredError,
  LinkInvalidError,
  type Model,
  type ModelFileLinkTerms,
  ModelLinkSigner,
  ModelStore,
  modelFileLinkPayload,
  modelFilePathOf,
  parseModelFileLinkQuery,
} from '@svc/domain';
import type { FastifyRequest } from 'fastify';
import { StoredFileAddressing } from '@svc/presentation';
import { modelFileBaseFor, serviceOriginOf } from '../../http/model-file-base';

/**
 * The download links handed to keys (CONTRACT 7, 19): MODEL_HOST's addresses
 * when set, else the model store's own links, valid MODEL_URL_TTL_SECONDS
 * from now (the Clock's): a signed `/model-files` link of the local store, or
 * a presigned GET of the object store; this class does not know which. It
 * also checks the signed links the `/model-files` route receives (the format
 * is the domain's model-file-link; the MAC the ModelLinkSigner's).
 */
@Injectable()
export class ModelFileLinks {
  constructor(
    private readonly store: ModelStore,
    private readonly signer: ModelLinkSigner,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * How the stored files of `models` are addressed for a key: MODEL_HOST's
   * base, unsigned, when set; else a link from the store for each, made now
   * under the origin the request reached.
   */
  async addressingFor(request: FastifyRequest, models: readonly Model[]): Promise<StoredFileAddressing> {
    if (this.config.models.host !== null) return modelFileBaseFor(this.config, request);
    const terms = this.termsFor(serviceOriginOf(request));
    const links = new Map<string, string>();
    await Promise.all(
      models.map(async ({ storedFile, downloadUrl }) => {
        if (storedFile !== null && downloadUrl === null) links.set(storedFile, await this.store.linkTo(storedFile, terms));
      }),
    );
    return (storedFile) => {
      const link = links.get(storedFile);
      if (link === undefined) throw new Error(`no link was made for the stored file ${storedFile}`);
      return link;
    };
  }

  /** The terms of links made now under `serviceOrigin`: valid MODEL_URL_TTL_SECONDS. */
  termsFor(serviceOrigin: string): ModelFileLinkTerms {
    return { signedAt: this.clock.now(), validForSeconds: this.config.models.urlTtlSeconds, serviceOrigin };
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
