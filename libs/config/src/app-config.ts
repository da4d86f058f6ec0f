/** The validated, typed configuration (CONTRACT 13). Built once at start-up by `loadConfig`. */
export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly path: string; readonly busyTimeoutMs: number }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      readonly poolSize: number;
      readonly statementTimeoutMs: number;
    };

export interface GithubAppConfig {
  readonly appId: string;
  readonly privateKey: string;
  readonly installationId: string;
  readonly repository: { readonly owner: string; readonly name: string };
  readonly apiUrl: string;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface TierSourceEntry {
  readonly adds: readonly string[];
  readonly monthly_limit: number | null;
}

export class AppConfig {
  readonly http!: {
    readonly port: number;
    readonly host: string;
    readonly trustProxy: boolean;
    readonly legacyRoutes: boolean;
    readonly shutdownTimeoutMs: number;
  };
  readonly database!: DatabaseConfig;
  readonly redisUrl!: string | null;
  readonly adminToken!: string | null;
  readonly keys!: { readonly prefix: string; readonly digestPepper: string | null };
  /** The tier matrix as read from `TIERS_FILE` (checked by the domain's TierCatalog). */
  readonly tiers!: Readonly<Record<string, TierSourceEntry>>;
  readonly tiersFile!: string;
  readonly models!: { readonly host: string | null; readonly storeDir: string };
  readonly installer!: {
    readonly staticToken: string | null;
    readonly staticTokenExpiresAt: Date | null;
    readonly githubApp: GithubAppConfig | null;
  };
  readonly rateLimit!: { readonly authFailuresPerMinute: number };
  readonly logLevel!: LogLevel;
}
