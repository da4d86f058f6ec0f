import { Injectable } from '@nestjs/common';
import {
  ApiKey,
  ApiKeyFormat,
  ApiKeyRepository,
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
 * (CONTRACT 5's variant for the holder's revocation). One read: the key
 * alone, or (`withContext`) the key, its user and its usage this period, so
 * validate and refresh need no other.
 */
@Injectable()
export class AuthenticateApiKey {
  constructor(
    private readonly format: ApiKeyFormat,
    private readonly hasher: SecretHasher,
    private readonly keys: ApiKeyRepository,
    private readonly contexts: KeyContextRepository,
    private readonly clock: Clock,
  ) {}

  /** Judges what a request presented as its key (no storage). */
  present(raw: unknown): PresentedCredential {
    const key = this.format.judge(raw);
    return { key, digest: key.kind === 'well-formed' ? this.hasher.digest(key.secret) : null };
  }

  async execute(credential: PresentedCredential, purpose: KeyPurpose = 'use'): Promise<ApiKey> {
    const found = await this.keys.findByDigest(this.digestOf(credential));
    assertUsableFor(purpose, found, this.clock.now());
    return found;
  }

  async withContext(credential: PresentedCredential, purpose: KeyPurpose = 'use'): Promise<KeyContext> {
    const digest = this.digestOf(credential);
    const now = this.clock.now();
    const found = await this.contexts.findByDigest(digest, BillingPeriod.containing(now).key);
    assertUsableFor(purpose, found?.key ?? null, now);
    return found as KeyContext;
  }

  /** CONTRACT 2, steps 4-5 (no storage touched), then the well-formed key's digest. */
  private digestOf({ key, digest }: PresentedCredential): string {
    assertWellFormed(key);
    return digest ?? this.hasher.digest(key.secret);
  }
}
