/** What the database keeps of the service's own secrets, by how each is stored now. */
export interface StoredSecretsCount {
  /** Values in plain text (written without a key, or before SECRETS_KEY was set). */
  readonly plain: number;
  /** Values encrypted under the key that encrypts (NEW_SECRETS_KEY while set, else SECRETS_KEY). */
  readonly sealed: number;
  /** Values encrypted under the other configured key (SECRETS_KEY while NEW_SECRETS_KEY is set). */
  readonly sealedUnderOtherKey: number;
}

/** What a re-encryption did. */
export interface ResealReport {
  /** Values rewritten under the key that encrypts (from plain text or the other key). */
  readonly resealed: number;
  /** Values that already were under it (left as they were). */
  readonly unchanged: number;
}

/**
 * The secrets the service keeps in the database (the generated license
 * signing keys, the generated link secret, the webhook signing secrets),
 * encrypted at rest with SECRETS_KEY. A port of the application:
 * the CLI's `license rotate-secrets-key` moves them to a new key.
 */
export abstract class SecretsAtRest {
  /** Reads every stored secret under the configured keys: a value none of them decrypts stops with an error naming it. */
  abstract count(): Promise<StoredSecretsCount>;
  /**
   * Rewrites every stored secret not yet under the key that encrypts (from
   * plain text, or from SECRETS_KEY to NEW_SECRETS_KEY), each with a new
   * nonce, one value at a time and only if it did not change meanwhile (a
   * running instance may write one), so that it may run beside the service.
   */
  abstract reseal(): Promise<ResealReport>;
}
