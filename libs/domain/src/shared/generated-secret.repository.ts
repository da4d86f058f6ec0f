/**
 * Secrets the service generates when the operator configured none (CONTRACT
 * 19), kept in the database by name so that every instance uses the same one.
 */
export abstract class GeneratedSecretRepository {
  /** The secret kept under `name`, or null. */
  abstract find(name: string): Promise<string | null>;
  /**
   * Keeps `value` under `name` unless a secret is kept there already, and
   * answers the one kept: instances that start together all get the first writer's.
   */
  abstract keepFirst(name: string, value: string, at: Date): Promise<string>;
}
