import { Injectable } from '@nestjs/common';
import { ApiKey, Clock, KeyStatus, LicenseType, TierCatalog, emailSearchForm } from '@svc/domain';
import { KeyDirectory, KeyPosition } from './key-directory';

export interface ListKeysInput {
  /** The holder's e-mail address, in any case. */
  readonly email?: string;
  /** The start of the holder's e-mail address, in any case. */
  readonly emailPrefix?: string;
  readonly prefix?: string;
  readonly userId?: string;
  readonly licenseType?: LicenseType;
  readonly status?: KeyStatus;
  /** Continue after this key (the last one of the page before). */
  readonly after?: KeyPosition;
  readonly limit?: number;
}

/** One key of the list, as operators see it: never the key, nor its digest. */
export interface ListedKey {
  readonly key: ApiKey;
  readonly email: string;
  readonly status: KeyStatus;
  /** The limit in force (null: unlimited). */
  readonly monthlyLimit: number | null;
}

export interface KeyPage {
  readonly keys: readonly ListedKey[];
  /** Where the next page starts; null on the last page. */
  readonly next: KeyPosition | null;
}

/** Keys newest first, filtered, a page at a time (CONTRACT 17). Pages are stable under inserts: they continue after a position. */
@Injectable()
export class ListKeys {
  static readonly DEFAULT_LIMIT = 50;
  static readonly MAX_LIMIT = 200;

  constructor(
    private readonly directory: KeyDirectory,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(input: ListKeysInput): Promise<KeyPage> {
    const now = this.clock.now();
    const limit = input.limit ?? ListKeys.DEFAULT_LIMIT;
    const found = await this.directory.search({
      email: input.email === undefined ? undefined : emailSearchForm(input.email),
      emailPrefix: input.emailPrefix === undefined || input.emailPrefix === '' ? undefined : emailSearchForm(input.emailPrefix),
      prefix: input.prefix,
      userId: input.userId,
      licenseType: input.licenseType,
      status: input.status,
      after: input.after,
      at: now,
      limit: limit + 1,
    });
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    return {
      keys: page.map(({ key, email }) => ({ key, email, status: key.statusAt(now), monthlyLimit: key.monthlyLimitUnder(this.catalog) })),
      next: found.length > limit && last ? { createdAt: last.key.props.createdAt, id: last.key.id } : null,
    };
  }
}
