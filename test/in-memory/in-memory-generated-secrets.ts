import { GeneratedSecretRepository, type LicenseSigningKey, LicenseSigningKeyRepository } from '@svc/domain';

/** Generated secrets in memory: the first kept under a name stays. */
export class InMemoryGeneratedSecretRepository extends GeneratedSecretRepository {
  private readonly secrets = new Map<string, string>();

  async find(name: string): Promise<string | null> {
    return this.secrets.get(name) ?? null;
  }

  async keepFirst(name: string, value: string): Promise<string> {
    if (!this.secrets.has(name)) this.secrets.set(name, value);
    return this.secrets.get(name)!;
  }
}

/** Generated signing keys in memory, by generation: the first kept under a generation stays. */
export class InMemoryLicenseSigningKeyRepository extends LicenseSigningKeyRepository {
  private readonly keys = new Map<number, LicenseSigningKey>();

  async list(): Promise<LicenseSigningKey[]> {
    return [...this.keys.values()].sort((a, b) => a.generation - b.generation);
  }

  async addIfAbsent(key: LicenseSigningKey): Promise<boolean> {
    if (this.keys.has(key.generation)) return false;
    this.keys.set(key.generation, { ...key });
    return true;
  }

  async remove(generations: readonly number[]): Promise<void> {
    for (const generation of generations) this.keys.delete(generation);
  }
}
