import { ListAllModels } from '@svc/application';
import { AppConfig } from '@svc/config';
import { adminModelViewOf, modelFileBaseOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';

/** `models list`: GET /admin/v1/models, every record (unpublished and custom ones included). */
@SubCommand({ name: 'list', description: 'list every model of the registry, by paradigm then name' })
export class ModelsListCommand extends CliCommand {
  constructor(
    private readonly listAll: ListAllModels,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run(_params: string[], options: CommonOptions = {}): Promise<void> {
    const fileBase = modelFileBaseOf(this.config.models.host, '');
    const models = (await this.listAll.execute()).map((model) => adminModelViewOf(model, fileBase));
    this.print(options, { models, total: models.length }, () =>
      models.length === 0
        ? 'No models.'
        : models
            .map((m) =>
              [
                m.name.padEnd(32),
                m.version.padEnd(8),
                m.type.padEnd(10),
                m.paradigm.padEnd(16),
                m.requires_license.padEnd(11),
                m.published ? 'published' : 'unpublished',
                m.owner_user_id ? `owner=${m.owner_user_id}` : '',
              ]
                .join(' ')
                .trimEnd(),
            )
            .join('\n'),
    );
  }
}
