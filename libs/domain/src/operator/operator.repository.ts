import { type Operator, type OperatorChange } from './operator';

export interface NewOperator {
  readonly operator: Operator;
  readonly tokenDigest: string;
}

export abstract class OperatorRepository {
  abstract create(created: NewOperator): Promise<void>;
  abstract findById(id: string): Promise<Operator | null>;
  /** The operator whose current token has this digest (replaced tokens are found by none). */
  abstract findByTokenDigest(digest: string): Promise<Operator | null>;
  /** Every operator, oldest first. */
  abstract list(): Promise<Operator[]>;
  /**
   * Applies the change at `at` (disabling stamps `disabled_at`). With
   * `keepAnOwner`, atomically refuses (answers 'last_owner') a change that
   * disables or demotes the last enabled owner. Null: no such operator.
   */
  abstract update(id: string, change: OperatorChange, at: Date, keepAnOwner: boolean): Promise<Operator | 'last_owner' | null>;
  /** Replaces the operator's token: its earlier ones stop at once. False: no such operator. */
  abstract replaceToken(id: string, digest: string): Promise<boolean>;
  /** Records a use, unless a later one was recorded already (several instances). */
  abstract touch(id: string, at: Date): Promise<void>;
  /** Whether any operator is enabled (the admin API exists without ADMIN_TOKEN). */
  abstract anyEnabled(): Promise<boolean>;
}
