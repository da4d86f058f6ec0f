/** One-way digest of a key's plaintext; keys are stored and looked up only by it. */
export abstract class SecretHasher {
  abstract digest(secret: string): string;
}
