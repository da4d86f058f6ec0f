import { Injectable } from '@nestjs/common';
import { AuthenticateApiKey, PresentedCredential } from '@svc/application';
import type { FastifyRequest } from 'fastify';
import { RequestSlot } from '../http/request-slot';
import { KeySource, presentedKeyOf } from './key-sources';

/**
 * The key a request presented, judged and digested once per request: the
 * rate limiter's tracker (per key digest) and the key guard share it.
 */
@Injectable()
export class PresentedKeys {
  private readonly byRequest = new RequestSlot<PresentedCredential>('presented key');

  constructor(private readonly authenticate: AuthenticateApiKey) {}

  of(request: FastifyRequest, sources: readonly KeySource[]): PresentedCredential {
    let credential = this.byRequest.get(request);
    if (credential === undefined) {
      credential = this.authenticate.present(presentedKeyOf(request, sources));
      this.byRequest.set(request, credential);
    }
    return credential;
  }
}
