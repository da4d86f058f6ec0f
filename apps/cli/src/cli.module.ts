import { DynamicModule, Module } from '@nestjs/common';
import { USE_CASES } from '@svc/application';
import { AppConfig, AppConfigModule } from '@svc/config';
import { InfrastructureModule } from '@svc/infrastructure';
import { AuditCommand } from './commands/audit.command';
import { CreateKeyCommand } from './commands/create-key.command';
import { DevicesCommand } from './commands/devices.command';
import { DevicesDeactivateCommand } from './commands/devices-deactivate.command';
import { DevicesListCommand } from './commands/devices-list.command';
import { KeysCommand } from './commands/keys.command';
import { ListKeysCommand } from './commands/list-keys.command';
import { LicenseCommand } from './commands/license.command';
import { LicenseKeygenCommand } from './commands/license-keygen.command';
import { LicenseRotateSecretsKeyCommand } from './commands/license-rotate-secrets-key.command';
import { LicenseRotateSigningKeyCommand } from './commands/license-rotate-signing-key.command';
import { LicenseVerifyCommand } from './commands/license-verify.command';
import { MigrateCommand } from './commands/migrate.command';
import { ModelsCommand } from './commands/models.command';
import { ModelsDeleteCommand } from './commands/models-delete.command';
import { ModelsListCommand } from './commands/models-list.command';
import { ModelsPublishCommand } from './commands/models-publish.command';
import { ModelsShowCommand } from './commands/models-show.command';
import { ModelsSweepCommand } from './commands/models-sweep.command';
import { OperatorsCommand } from './commands/operators.command';
import { CreateOperatorCommand } from './commands/operators-create.command';
import { DisableOperatorCommand } from './commands/operators-disable.command';
import { ListOperatorsCommand } from './commands/operators-list.command';
import { ReplaceOperatorTokenCommand } from './commands/operators-token.command';
import { RevokeKeyCommand } from './commands/revoke-key.command';
import { RotateKeyCommand } from './commands/rotate-key.command';
import { ShowKeyCommand } from './commands/show-key.command';
import { UpdateKeyCommand } from './commands/update-key.command';
import { UsageCommand } from './commands/usage.command';
import { UsageShowCommand } from './commands/usage-show.command';
import { CliProgram } from './shared/cli-program';

/** Every command of the CLI, subcommands included (nest-commander finds them among the providers). */
export const COMMANDS = [
  KeysCommand,
  CreateKeyCommand,
  ListKeysCommand,
  ShowKeyCommand,
  UpdateKeyCommand,
  RevokeKeyCommand,
  RotateKeyCommand,
  AuditCommand,
  UsageCommand,
  UsageShowCommand,
  MigrateCommand,
  ModelsCommand,
  ModelsPublishCommand,
  ModelsListCommand,
  ModelsShowCommand,
  ModelsDeleteCommand,
  ModelsSweepCommand,
  LicenseCommand,
  LicenseKeygenCommand,
  LicenseRotateSigningKeyCommand,
  LicenseRotateSecretsKeyCommand,
  LicenseVerifyCommand,
  OperatorsCommand,
  CreateOperatorCommand,
  ListOperatorsCommand,
  DisableOperatorCommand,
  ReplaceOperatorTokenCommand,
  DevicesCommand,
  DevicesListCommand,
  DevicesDeactivateCommand,
] as const;

/** The composition root of the operator CLI: the same adapters and use cases as the API, no HTTP. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [AppConfigModule.forRoot(config), InfrastructureModule.forRoot(config)],
      providers: [...USE_CASES, CliProgram, ...COMMANDS],
    };
  }
}
