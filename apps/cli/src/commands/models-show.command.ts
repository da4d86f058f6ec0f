import { ShowModel } from '@svc/application';
import { AppConfig } from '@svc/config';
import { AdminModelResponse, adminModelViewOf, modelFileBaseOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';

/** `models show NAME`: GET /admin/v1/models/{name}. */
@SubCommand({
  name: 'show',
  arguments: '<name>',
  argsDescription: { name: 'the model name' },
  description: "show a model's record, file and checksum",
})
export class ModelsShowCommand extends CliCommand {
  constructor(
    private readonly showModel: ShowModel,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run([name]: string[], options: CommonOptions = {}): Promise<void> {
    const view = adminModelViewOf(await this.showModel.execute({ name }), modelFileBaseOf(this.config.models.host, ''));
    this.print(options, view, () => modelSummary(view));
  }
}

/** A short human-readable summary of a model's admin view. */
export function modelSummary(view: AdminModelResponse): string {
  return [
    `Model ${view.name} ${view.version} (${view.published ? 'published' : 'not published'})`,
    `  type              ${view.type}`,
    `  paradigm          ${view.paradigm}`,
    `  n_features        ${view.n_features}`,
    `  n_classes         ${view.n_classes}`,
    `  requires_license  ${view.requires_license}`,
    `  owner_user_id     ${view.owner_user_id ?? '-'}`,
    `  size_bytes        ${view.size_bytes ?? '-'}`,
    `  checksum          ${view.checksum ?? '-'}`,
    `  download_url      ${view.download_url ?? '-'}`,
    `  stored_file       ${view.stored_file ?? '-'}`,
  ].join('\n');
}
