import { Injectable } from '@nestjs/common';
import {
  ApiKeyFormat,
  BillingPeriod,
  Clock,
  KeyContext,
  KeyContextRepository,
  KeyPurpose,
  PresentedKey,
  SecretHasher,
  assertUsableFor,
  assertWellFormed,
} from '@svc/domain';

/**
 * A key as a request presented it: judged by form alone, and digested once
 * when well-formed, so the rate limiter's tracker and the key check share
 * one judgement and one digest per request.
 */
export interface PresentedCredential {
  readonly key: PresentedKey;
  /** The storage digest of a well-formed key; null otherwise. */
  readonly digest: string | null;
}

/**
 * The key checks every key-taking endpoint runs first, in CONTRACT 2's order:
 * missing, malformed (no storage touched), unknown or revoked, expired
 * (CONTRACT 5's variant for the holder's revocation). The key, its user and
 * its usage this period are one read, so validate and refresh need no other.
 */
@Injectable()
export class AuthenticateApiKey {
  constructor(
    private readonly format: ApiKeyFormat,
    private readonly hasher: SecretHasher,
    private readonly contexts: KeyContextRepository,
    private readonly clock: Clock,
  ) {}

  /** Judges what a request presented as its key (no storage). */
  present(raw: unknown): PresentedCredential {
    const key = this.format.judge(raw);
    return { key, digest: key.kind === 'well-formed' ? this.hasher.digest(key.secret) : null };
  }

  async execute(credential: PresentedCredential, purpose: KeyPurpose = 'use'): Promise<KeyContext> {
    assertWellFormed(credential.key);
    const now = this.clock.now();
    const found = await this.contexts.findByDigest(credential.digest ?? this.hasher.digest(credential.key.secret), BillingPeriod.containing(now).key);
    assertUsableFor(purpose, found?.key ?? null, now);
    return found as KeyContext;
  }
}
