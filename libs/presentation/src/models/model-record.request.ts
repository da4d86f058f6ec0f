import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  LICENSE_TYPES,
  LicenseType,
  MODEL_LIMITS,
  MODEL_NAME_RULE,
  MODEL_PARADIGM_FORM,
  MODEL_TYPES,
  MODEL_VERSION_FORM,
  ModelDescriptionInput,
  ModelFileClaims,
  ModelMetadata,
  ModelType,
  isChecksum,
  isDownloadUrl,
  isModelName,
} from '@svc/domain';
import { plainToInstance } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
  validateSync,
} from 'class-validator';
import { IsPlainText, IsStringThat, failedRules } from '../validation/request-validation';

/**
 * POST and PUT /admin/v1/models bodies and the CLI's `models publish` record
 * (SPEC 2.4 fields and `owner_user_id`, CONTRACT 7 and 12): each field's own
 * form, with the domain's bounds and forms. The rules that span fields (the
 * name against the path, a custom model's tier) are the domain's
 * (`modelDescriptionOf`). Fields are declared in the order they are judged.
 */

const required = (field: string): ValidationOptions => ({ message: `${field} is required` });
const rule = (field: string, text: string): ValidationOptions => ({ message: `${field} ${text}` });
const text = (field: string, max: number): ValidationOptions => rule(field, `must be a string of at most ${max} characters`);
const count = (field: string, min: number): ValidationOptions => rule(field, `must be an integer from ${min} to ${MODEL_LIMITS.maxCount}`);
const CHECKSUM_RULE = rule('checksum', 'must be sha256:<64 lowercase hex> of the file');
const SIZE_BYTES_RULE = rule('size_bytes', `must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`);
const SIZE_MB_RULE = rule('size_mb', 'must be a number >= 0 (size_bytes / 1000000)');

const VERSION_RULE = rule('version', 'must be dotted digits such as 1.0.2');
const PARADIGM_RULE = rule('paradigm', 'must be 1-64 lowercase letters, digits, "_" or "-" (e.g. motor_imagery, p300, ssvep)');
const TRAINING_SUBJECTS_RULE = rule('metadata.training_subjects', 'must be an integer >= 0');
const METADATA_RULE = 'metadata must be an object with description, training_subjects, accuracy, feature_type and recommended_use';

/** SPEC 2.4 `metadata`: the five documented fields. Extra fields are kept as given (see IsModelMetadata). */
export class ModelMetadataRequest {
  @ApiProperty({
    type: String,
    maxLength: MODEL_LIMITS.descriptionLength,
    example: '4-class motor imagery (left hand, right hand, feet, tongue), LDA over CSP features',
  })
  @IsDefined(required('metadata.description'))
  @IsString(text('metadata.description', MODEL_LIMITS.descriptionLength))
  @MaxLength(MODEL_LIMITS.descriptionLength, text('metadata.description', MODEL_LIMITS.descriptionLength))
  @IsPlainText('metadata.description')
  readonly description!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MODEL_LIMITS.maxCount, example: 9 })
  @IsDefined(required('metadata.training_subjects'))
  @IsInt(TRAINING_SUBJECTS_RULE)
  @Min(0, TRAINING_SUBJECTS_RULE)
  @Max(MODEL_LIMITS.maxCount, TRAINING_SUBJECTS_RULE)
  readonly training_subjects!: number;

  @ApiProperty({ type: String, maxLength: MODEL_LIMITS.shortTextLength, description: 'An accuracy range', example: '0.70-0.80' })
  @IsDefined(required('metadata.accuracy'))
  @IsString(text('metadata.accuracy', MODEL_LIMITS.shortTextLength))
  @MaxLength(MODEL_LIMITS.shortTextLength, text('metadata.accuracy', MODEL_LIMITS.shortTextLength))
  @IsPlainText('metadata.accuracy')
  readonly accuracy!: string;

  @ApiProperty({ type: String, maxLength: MODEL_LIMITS.shortTextLength, example: 'csp' })
  @IsDefined(required('metadata.feature_type'))
  @IsString(text('metadata.feature_type', MODEL_LIMITS.shortTextLength))
  @MaxLength(MODEL_LIMITS.shortTextLength, text('metadata.feature_type', MODEL_LIMITS.shortTextLength))
  @IsPlainText('metadata.feature_type')
  readonly feature_type!: string;

  @ApiProperty({ type: String, maxLength: MODEL_LIMITS.descriptionLength, example: '4-class motor-imagery BCIs' })
  @IsDefined(required('metadata.recommended_use'))
  @IsString(text('metadata.recommended_use', MODEL_LIMITS.descriptionLength))
  @MaxLength(MODEL_LIMITS.descriptionLength, text('metadata.recommended_use', MODEL_LIMITS.descriptionLength))
  @IsPlainText('metadata.recommended_use')
  readonly recommended_use!: string;
}

/** Why `value` is not a model's metadata, or undefined when it is one. */
function metadataFailureOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return METADATA_RULE;
  if (Buffer.byteLength(JSON.stringify(value)) > MODEL_LIMITS.metadataBytes) {
    return `metadata must be at most ${MODEL_LIMITS.metadataBytes} bytes of JSON`;
  }
  return failedRules(validateSync(plainToInstance(ModelMetadataRequest, value), { forbidUnknownValues: false }))[0]?.message;
}

/**
 * `metadata`: a JSON object of at most MODEL_LIMITS.metadataBytes whose
 * documented fields follow ModelMetadataRequest. It is judged as a whole
 * rather than as a nested, whitelisted DTO, so that the operator's extra
 * fields are kept as given; the message names the first bad field.
 */
function IsModelMetadata(): PropertyDecorator {
  return ValidateBy({
    name: 'isModelMetadata',
    validator: {
      validate: (value: unknown) => metadataFailureOf(value) === undefined,
      defaultMessage: (args) => metadataFailureOf(args?.value) ?? METADATA_RULE,
    },
  });
}

export class ModelRecordRequest {
  // The file's identity (CONTRACT 7): required with an external download_url (computed from the file
  // by the CLI or any tool); for a file the service holds, accepted only when equal to the stored
  // file's, so that a record read by GET can be PUT back. The domain judges them (recordFileOf).
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: '^sha256:[0-9a-f]{64}$',
    description:
      "Required with an external download_url: sha256 of the file's bytes. Otherwise computed from the uploaded file (a value must equal it).",
  })
  @IsOptional()
  @IsStringThat(isChecksum, CHECKSUM_RULE)
  readonly checksum?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description:
      "Required with an external download_url: the file's exact size. Otherwise computed from the uploaded file (a value must equal it).",
  })
  @IsOptional()
  @IsInt(SIZE_BYTES_RULE)
  @Min(1, SIZE_BYTES_RULE)
  @Max(Number.MAX_SAFE_INTEGER, SIZE_BYTES_RULE)
  readonly size_bytes?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    description: 'Always size_bytes / 1,000,000; accepted (for round trips) only when it equals that.',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, SIZE_MB_RULE)
  @Min(0, SIZE_MB_RULE)
  readonly size_mb?: number | null;

  /** Left out: the name in the path (PUT); POST and the CLI need it (the domain says so, with this message). */
  @ApiProperty({
    type: String,
    maxLength: MODEL_LIMITS.nameLength,
    description: 'Lowercase letters, digits, _ . -; at most 100 characters',
    example: 'p300_binary_v2',
  })
  @ValidateIf((_record, value) => value !== undefined)
  @IsStringThat(isModelName, { message: MODEL_NAME_RULE })
  readonly name?: string;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES] })
  @IsIn(LICENSE_TYPES, rule('requires_license', `must be one of ${LICENSE_TYPES.join(', ')}`))
  readonly requires_license!: LicenseType;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: MODEL_LIMITS.ownerUserIdLength,
    nullable: true,
    description: "Makes a custom model, seen only by this user's keys (commercial and above)",
  })
  @IsOptional()
  @IsString(rule('owner_user_id', 'must be a user id'))
  @Length(1, MODEL_LIMITS.ownerUserIdLength, rule('owner_user_id', 'must be a user id'))
  @IsPlainText('owner_user_id')
  readonly owner_user_id?: string | null;

  @ApiProperty({ type: String, maxLength: MODEL_LIMITS.versionLength, example: '2.0.0' })
  @IsDefined(required('version'))
  @IsString(VERSION_RULE)
  @MaxLength(MODEL_LIMITS.versionLength, VERSION_RULE)
  @Matches(MODEL_VERSION_FORM, VERSION_RULE)
  readonly version!: string;

  @ApiProperty({ type: String, enum: [...MODEL_TYPES] })
  @IsDefined(required('type'))
  @IsIn(MODEL_TYPES, rule('type', `must be one of ${MODEL_TYPES.join(', ')}`))
  readonly type!: ModelType;

  @ApiProperty({ type: String, maxLength: MODEL_LIMITS.paradigmLength, example: 'p300' })
  @IsDefined(required('paradigm'))
  @IsString(PARADIGM_RULE)
  @Matches(MODEL_PARADIGM_FORM, PARADIGM_RULE)
  readonly paradigm!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MODEL_LIMITS.maxCount })
  @IsDefined(required('n_features'))
  @IsInt(count('n_features', 1))
  @Min(1, count('n_features', 1))
  @Max(MODEL_LIMITS.maxCount, count('n_features', 1))
  readonly n_features!: number;

  @ApiProperty({ type: 'integer', minimum: 2, maximum: MODEL_LIMITS.maxCount })
  @IsDefined(required('n_classes'))
  @IsInt(count('n_classes', 2))
  @Min(2, count('n_classes', 2))
  @Max(MODEL_LIMITS.maxCount, count('n_classes', 2))
  readonly n_classes!: number;

  @ApiPropertyOptional({
    type: String,
    maxLength: MODEL_LIMITS.downloadUrlLength,
    nullable: true,
    description:
      'An explicit external download address (a CDN): checksum and size_bytes are then required. Left out, or naming the stored file (as GET shows it, signed or not): the uploaded file is served',
  })
  @IsOptional()
  @IsStringThat(isDownloadUrl, rule('download_url', `must be an http(s) URL of at most ${MODEL_LIMITS.downloadUrlLength} characters`))
  @IsPlainText('download_url')
  readonly download_url?: string | null;

  @ApiProperty({ type: () => ModelMetadataRequest })
  @IsModelMetadata()
  readonly metadata!: ModelMetadata;
}

/** The checked record as the domain names it; `name` stays left out when it was (the path names the model). */
export function modelDescriptionInputOf(record: ModelRecordRequest): ModelDescriptionInput {
  return {
    name: record.name,
    version: record.version,
    type: record.type,
    paradigm: record.paradigm,
    nFeatures: record.n_features,
    nClasses: record.n_classes,
    downloadUrl: record.download_url ?? null,
    requiresLicense: record.requires_license,
    ownerUserId: record.owner_user_id ?? null,
    metadata: record.metadata,
  };
}

/** What the body says about the model's file (`checksum`, `size_bytes`, `size_mb`); the domain judges it (recordFileOf). */
export function modelFileClaimsOf(record: ModelRecordRequest): ModelFileClaims {
  return { checksum: record.checksum ?? null, sizeBytes: record.size_bytes ?? null, sizeMb: record.size_mb ?? null };
}
