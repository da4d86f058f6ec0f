import { RevokeKeyById } from '@svc/application';
import { keyViewOf } from '@svc/presentation';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { keySummary } from '../shared/summaries';
import { cliActor } from '../shared/cli-actor';

interface RevokeKeyOptions extends CommonOptions {
  readonly reason?: string;
}

/** `keys revoke KEY_ID`: POST /admin/v1/keys/{key_id}/revoke. Revoking twice is KEY_REVOKED. */
@SubCommand({
  name: 'revoke',
  arguments: '<key_id>',
  argsDescription: { key_id: 'the key id (key_...)' },
  description: 'revoke a key for good',
})
export class RevokeKeyCommand extends CliCommand<RevokeKeyOptions> {
  constructor(private readonly revokeKey: RevokeKeyById) {
    super();
  }

  async run([keyId]: string[], options: RevokeKeyOptions = {}): Promise<void> {
    const view = keyViewOf(await this.revokeKey.execute({ keyId, reason: options.reason ?? null, actor: cliActor() }));
    this.print(options, view, () => keySummary(view));
  }

  @Option({ flags: '--reason <reason>', description: 'why, for the audit log' })
  parseReason(value: string): string {
    return value;
  }
}
