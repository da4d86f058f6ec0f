import { CreateModel, PublishModelFromFile } from '@svc/application';
import { AppConfig } from '@svc/config';
import { InvalidRequestError, checksumOf } from '@svc/domain';
import { ModelRecordRequest, adminModelViewOf, modelDescriptionInputOf, modelFileBaseOf, validatedRequest } from '@svc/presentation';
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { CliUsageError } from '../shared/cli-usage-error';
import { modelSummary } from './models-show.command';
import { cliActor } from '../shared/cli-actor';

interface PublishModelOptions extends CommonOptions {
  readonly name?: string;
  readonly version?: string;
  readonly type?: string;
  readonly paradigm?: string;
  readonly nFeatures?: string;
  readonly nClasses?: string;
  readonly requiresLicense?: string;
  readonly owner?: string;
  readonly metadata?: string;
  readonly downloadUrl?: string;
}

/**
 * `models publish FILE`: the record and its file in one (CONTRACT 12). The
 * file is copied into the model store (MODEL_STORE_DIR) and `checksum` and
 * size are computed from its bytes; they cannot be given. With
 * `--download-url URL` the file is served from that address (a CDN holding
 * the same bytes): nothing is copied, and `checksum` and size are computed
 * from the local file and registered with the external address (CONTRACT 7).
 */
@SubCommand({
  name: 'publish',
  arguments: '<file>',
  argsDescription: { file: 'the model file; its bytes are copied into the model store and hashed' },
  description: 'register a model and copy its file into the model store (checksum and size are computed from the file)',
})
export class ModelsPublishCommand extends CliCommand<PublishModelOptions> {
  constructor(
    private readonly publish: PublishModelFromFile,
    private readonly createModel: CreateModel,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async run([file]: string[], options: PublishModelOptions = {}): Promise<void> {
    const path = resolve(file);
    if (!isReadableFile(path)) throw new CliUsageError(`cannot read the model file ${file}`);
    // the options as an admin API body, judged by the same rules (ModelRecordRequest)
    const record = await validatedRequest(ModelRecordRequest, {
      name: options.name,
      version: options.version,
      type: options.type,
      paradigm: options.paradigm,
      n_features: integerOption('--n-features', options.nFeatures),
      n_classes: integerOption('--n-classes', options.nClasses),
      requires_license: options.requiresLicense,
      owner_user_id: options.owner,
      metadata: metadataOption(options.metadata),
      download_url: options.downloadUrl,
    });
    const description = modelDescriptionInputOf(record);
    const model =
      description.downloadUrl === null
        ? await this.publish.execute({ description, file: createReadStream(path), actor: cliActor() })
        : await this.createModel.execute({ description, claims: await fileClaimsOf(path), actor: cliActor() });
    const view = adminModelViewOf(model, modelFileBaseOf(this.config.models.host, ''));
    this.print(options, view, () => `Published model ${view.name}\n${modelSummary(view)}`);
  }

  @Option({ flags: '--name <name>', description: 'the model name, e.g. motor_imagery_4class_v1 (required)' })
  parseName(value: string): string {
    return value;
  }

  @Option({ flags: '--version <version>', description: 'dotted version, e.g. 1.0.0 (required)' })
  parseVersion(value: string): string {
    return value;
  }

  @Option({ flags: '--type <type>', description: 'SvcLDA, SvcQDA or SvcProbit (required)' })
  parseType(value: string): string {
    return value;
  }

  @Option({ flags: '--paradigm <paradigm>', description: 'motor_imagery, p300, ssvep, ... (required)' })
  parseParadigm(value: string): string {
    return value;
  }

  @Option({ flags: '--n-features <count>', description: 'expected input feature count (required)' })
  parseNFeatures(value: string): string {
    return value;
  }

  @Option({ flags: '--n-classes <count>', description: 'output class count (required)' })
  parseNClasses(value: string): string {
    return value;
  }

  @Option({ flags: '--requires-license <tier>', description: 'free, research, commercial or enterprise (required)' })
  parseRequiresLicense(value: string): string {
    return value;
  }

  @Option({ flags: '--owner <user_id>', description: 'make it a custom model of this user (commercial tier and above)' })
  parseOwner(value: string): string {
    return value;
  }

  @Option({
    flags: '--metadata <json>',
    description: 'a JSON object: description, training_subjects, accuracy, feature_type, recommended_use (required)',
  })
  parseMetadata(value: string): string {
    return value;
  }

  @Option({
    flags: '--download-url <url>',
    description:
      'serve the file from this address (a CDN holding the same bytes): checksum and size are computed from FILE, nothing is copied',
  })
  parseDownloadUrl(value: string): string {
    return value;
  }
}

/** The local file's `checksum` and size, computed from its bytes as they stream (CONTRACT 7). */
async function fileClaimsOf(path: string): Promise<{ checksum: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    sizeBytes += bytes.length;
  }
  if (sizeBytes === 0) throw new InvalidRequestError('the model file is empty');
  return { checksum: checksumOf(hash.digest('hex')), sizeBytes };
}

function isReadableFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** An integer option; absent stays absent (the record's rules then name the field). */
function integerOption(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(Number(text))) throw new InvalidRequestError(`${flag} must be an integer`);
  return Number(text);
}

function metadataOption(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequestError('--metadata must be a JSON object');
  }
}
