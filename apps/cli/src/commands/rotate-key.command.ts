import { RotateKeyById } from '@svc/application';
import { rotatedKeyViewOf } from '@svc/presentation';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { graceSecondsOption } from '../shared/option-values';
import { rotatedKeySummary } from '../shared/summaries';
import { cliActor } from '../shared/cli-actor';

interface RotateKeyOptions extends CommonOptions {
  readonly graceSeconds?: string;
}

/**
 * `keys rotate KEY_ID`: POST /admin/v1/keys/{key_id}/rotate (CONTRACT 16).
 * The new key is printed this once; the old one works until its grace ends.
 */
@SubCommand({
  name: 'rotate',
  arguments: '<key_id>',
  argsDescription: { key_id: 'the key id (key_...)' },
  description: 'replace a key with a new one of the same license; the old one works until the grace ends',
})
export class RotateKeyCommand extends CliCommand<RotateKeyOptions> {
  constructor(private readonly rotateKey: RotateKeyById) {
    super();
  }

  async run([keyId]: string[], options: RotateKeyOptions = {}): Promise<void> {
    const graceSeconds = options.graceSeconds === undefined ? undefined : graceSecondsOption(options.graceSeconds);
    const view = rotatedKeyViewOf(await this.rotateKey.execute({ keyId, graceSeconds, actor: cliActor() }));
    this.print(options, view, () => rotatedKeySummary(view));
  }

  @Option({
    flags: '--grace-seconds <seconds>',
    description: 'how long the old key keeps working, 0 to 604800 (default KEY_ROTATION_GRACE_SECONDS)',
  })
  parseGraceSeconds(value: string): string {
    return value;
  }
}
