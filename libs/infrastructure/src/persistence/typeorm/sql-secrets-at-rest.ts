import { Logger, type OnModuleInit } from '@nestjs/common';
import { type ResealReport, SecretsAtRest, type StoredSecretsCount } from '@svc/application';
import { type DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { type SecretsCipher, type StoredForm } from '../../crypto/secrets-cipher';
import { GeneratedSecretRecord } from './records/generated-secret.record';
import { LicenseSigningKeyRecord } from './records/license-signing-key.record';
import { WebhookEndpointRecord } from './records/webhook.records';

/** One column of secrets: its table's record, the column's property, and the property that names a row. */
interface SecretColumn {
  readonly record: EntityTarget<ObjectLiteral>;
  readonly table: string;
  readonly column: string;
  readonly property: string;
  readonly id: string;
}

/**
 * Every column where the service keeps a secret of its own: what
 * SecretsCipher seals. A new one is one more row here, and its repository
 * seals and opens through the cipher.
 */
const SECRET_COLUMNS: readonly SecretColumn[] = [
  { record: GeneratedSecretRecord, table: 'generated_secrets', column: 'value', property: 'value', id: 'name' },
  { record: LicenseSigningKeyRecord, table: 'license_signing_keys', column: 'private_key', property: 'privateKey', id: 'generation' },
  { record: WebhookEndpointRecord, table: 'webhook_endpoints', column: 'secret', property: 'secret', id: 'id' },
  { record: WebhookEndpointRecord, table: 'webhook_endpoints', column: 'previous_secret', property: 'previousSecret', id: 'id' },
];

/** A value rewritten by a running instance meanwhile is read again: at most this many times. */
const RESEAL_ATTEMPTS = 5;

/** The warning of a start without SECRETS_KEY: once per start. */
export const PLAIN_TEXT_WARNING =
  'SECRETS_KEY is not set: the secrets kept in the database (generated license signing keys, the generated model link ' +
  'secret, webhook signing secrets) are stored in plain text, and anyone who reads the database or a backup of it can sign ' +
  'licenses. Set SECRETS_KEY (32 random bytes, base64: openssl rand -base64 32) and run `license rotate-secrets-key`';

/**
 * The secrets at rest on a SQL database, through TypeORM's repositories and
 * query builder. At start-up (API and CLI) every stored secret is read under
 * the configured keys, so a wrong or missing SECRETS_KEY stops the start with
 * a line naming the variable and the value's place, never later at a request;
 * without any key the start logs one warning that secrets are in plain text.
 */
export class SqlSecretsAtRest extends SecretsAtRest implements OnModuleInit {
  private readonly logger = new Logger('SecretsAtRest');

  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: SecretsCipher,
  ) {
    super();
  }

  async onModuleInit(): Promise<void> {
    const stored = await this.count();
    if (!this.cipher.seals) this.logger.warn(PLAIN_TEXT_WARNING);
    else if (stored.plain > 0 || stored.sealedUnderOtherKey > 0) {
      const behind = stored.plain + stored.sealedUnderOtherKey;
      this.logger.log(
        `${behind} of the secrets kept in the database are not yet encrypted under ${this.cipher.sealingVariable} ` +
          '(written before it was set): `license rotate-secrets-key` encrypts them, else each is on its next write',
      );
    }
  }

  async count(): Promise<StoredSecretsCount> {
    const counts: Record<StoredForm, number> = { plain: 0, sealed: 0, 'sealed-under-other-key': 0 };
    for (const column of SECRET_COLUMNS) {
      for (const { where, stored } of await this.valuesOf(column)) counts[this.cipher.formOf(stored, where)] += 1;
    }
    return { plain: counts.plain, sealed: counts.sealed, sealedUnderOtherKey: counts['sealed-under-other-key'] };
  }

  async reseal(): Promise<ResealReport> {
    let resealed = 0;
    let unchanged = 0;
    for (const column of SECRET_COLUMNS) {
      for (const value of await this.valuesOf(column)) {
        if (await this.resealOne(column, value)) resealed += 1;
        else unchanged += 1;
      }
    }
    return { resealed, unchanged };
  }

  /**
   * Rewrites one value under the sealing key unless it already is: a
   * conditional update (only while the column still holds what was read),
   * then a read back; a value a running instance rewrote meanwhile is judged
   * again. Answers whether it was rewritten.
   */
  private async resealOne(column: SecretColumn, first: { id: unknown; where: string; stored: string }): Promise<boolean> {
    let stored: string | null = first.stored;
    for (let attempt = 0; attempt < RESEAL_ATTEMPTS && stored !== null; attempt++) {
      if (this.cipher.formOf(stored, first.where) === 'sealed') return attempt > 0;
      const sealed = this.cipher.seal(this.cipher.open(stored, first.where));
      await this.dataSource
        .createQueryBuilder()
        .update(column.record)
        .set({ [column.property]: sealed })
        .where({ [column.id]: first.id, [column.property]: stored })
        .execute();
      stored = await this.storedAt(column, first.id);
      if (stored === sealed) return true;
    }
    if (stored === null) return false; // the row was deleted meanwhile (a webhook endpoint, a replaced signing key)
    throw new Error(`${first.where} kept changing while it was being re-encrypted: run the command again`);
  }

  private async valuesOf(column: SecretColumn): Promise<Array<{ id: unknown; where: string; stored: string }>> {
    const rows: Array<Record<string, unknown>> = await this.dataSource
      .getRepository(column.record)
      .createQueryBuilder('r')
      .select([`r.${column.id}`, `r.${column.property}`])
      .getMany();
    return rows
      .filter((row) => typeof row[column.property] === 'string')
      .map((row) => ({
        id: row[column.id],
        where: `${column.table}.${column.column} of ${String(row[column.id])}`,
        stored: row[column.property] as string,
      }));
  }

  private async storedAt(column: SecretColumn, id: unknown): Promise<string | null> {
    const row = await this.dataSource
      .getRepository(column.record)
      .createQueryBuilder('r')
      .select([`r.${column.id}`, `r.${column.property}`])
      .where({ [column.id]: id })
      .getOne();
    return row && typeof row[column.property] === 'string' ? (row[column.property] as string) : null;
  }
}
