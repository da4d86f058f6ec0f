import { ApiProperty } from '@nestjs/swagger';
import { LICENSE_TYPES, MODEL_TYPES } from '@svc/domain';

/** SPEC 2.4 `metadata`: the five documented fields; operators may add more. */
export class ModelMetadataResponse {
  @ApiProperty({ type: String, example: '4-class motor imagery (left hand, right hand, feet, tongue), LDA over CSP features' })
  readonly description!: string;

  @ApiProperty({ type: 'integer', example: 9 })
  readonly training_subjects!: number;

  @ApiProperty({ type: String, description: 'An accuracy range', example: '0.70-0.80' })
  readonly accuracy!: string;

  @ApiProperty({ type: String, example: 'csp' })
  readonly feature_type!: string;

  @ApiProperty({ type: String, example: '4-class motor-imagery BCIs' })
  readonly recommended_use!: string;
}

/** SPEC 2.4, plus the exact `size_bytes` (CONTRACT 7). */
export class ModelRecordResponse {
  @ApiProperty({ type: String, description: 'Unique model identifier', example: 'motor_imagery_4class_v1' })
  readonly name!: string;

  @ApiProperty({ type: String, description: 'Dotted version', example: '1.0.0' })
  readonly version!: string;

  @ApiProperty({ type: String, enum: [...MODEL_TYPES], example: 'SvcLDA' })
  readonly type!: string;

  @ApiProperty({ type: String, description: 'motor_imagery, p300, ssvep, ... (an open list)', example: 'motor_imagery' })
  readonly paradigm!: string;

  @ApiProperty({ type: 'integer', description: 'Expected input feature count', example: 24 })
  readonly n_features!: number;

  @ApiProperty({ type: 'integer', description: 'Output class count', example: 4 })
  readonly n_classes!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'File size in megabytes (bytes / 1,000,000, unrounded)', example: 0.001234 })
  readonly size_mb!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Exact file size in bytes', example: 1234 })
  readonly size_bytes!: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Direct download address on the model host',
    example: 'https://models.example.org/model-files/3f1c9a0b7d2e4c5a8b6f0e1d.bin',
  })
  readonly download_url!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'sha256:<hex> of the file', example: `sha256:${'0'.repeat(64)}` })
  readonly checksum!: string | null;

  @ApiProperty({ type: String, enum: [...LICENSE_TYPES], description: 'Minimum tier needed', example: 'free' })
  readonly requires_license!: string;

  @ApiProperty({ type: () => ModelMetadataResponse })
  readonly metadata!: Readonly<Record<string, unknown>>;
}

/** SPEC 4.6: the models the key may load and their count. */
export class ModelListResponse {
  @ApiProperty({ type: () => ModelRecordResponse, isArray: true })
  readonly models!: readonly ModelRecordResponse[];

  @ApiProperty({ type: 'integer', description: 'The number of records in models' })
  readonly total!: number;
}

/** The operators' view of a model (admin API). */
export class AdminModelResponse extends ModelRecordResponse {
  @ApiProperty({ type: String, nullable: true, description: "A custom model's owner (a user id)" })
  readonly owner_user_id!: string | null;

  @ApiProperty({
    type: Boolean,
    description: 'Listed to keys: it is complete, a stored file or an explicit download address with its checksum and size',
  })
  readonly published!: boolean;

  @ApiProperty({ type: String, nullable: true, description: "The file's name in the model store, if one was uploaded" })
  readonly stored_file!: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly created_at!: string;

  @ApiProperty({ type: String, format: 'date-time' })
  readonly updated_at!: string;
}

export class AdminModelListResponse {
  @ApiProperty({ type: () => AdminModelResponse, isArray: true })
  readonly models!: readonly AdminModelResponse[];

  @ApiProperty({ type: 'integer' })
  readonly total!: number;
}
