import { ApiProperty } from '@nestjs/swagger';
import { DEVICE_DEACTIVATION_REASONS } from '@svc/domain';

/** A device of a license as operators see it (CONTRACT 23): never its fingerprint nor the fingerprint's digest. */
export class LicenseDeviceResponse {
  @ApiProperty({ type: String, example: 'dev_5f2c0a9e1b7d3c4e8f6a2b1c' })
  readonly device_id!: string;

  @ApiProperty({ type: String, nullable: true, example: 'EEG lab PC 2' })
  readonly name!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'windows-x64' })
  readonly platform!: string | null;

  @ApiProperty({
    type: String,
    enum: ['active', 'lapsed', 'deactivated'],
    description:
      'active: holds a seat; lapsed: its lease ran out (its seat is free) and it is not marked yet; deactivated: see deactivation_reason',
  })
  readonly status!: 'active' | 'lapsed' | 'deactivated';

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-28T15:04:05Z' })
  readonly activated_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-28T15:04:05Z' })
  readonly last_seen_at!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When an active device loses its seat unless seen again; null: the tier gives no lease, or the device is not active',
  })
  readonly lease_expires_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  readonly deactivated_at!: string | null;

  @ApiProperty({
    type: String,
    enum: [...DEVICE_DEACTIVATION_REASONS],
    nullable: true,
    description: 'Why: sdk (its SDK deactivated it), operator (an operator or the CLI), lease_expired; null while not deactivated',
  })
  readonly deactivation_reason!: string | null;
}

/** GET /admin/v1/keys/{key_id}/devices: every device of the key's license, whichever of its keys activated it. */
export class LicenseDeviceListResponse {
  @ApiProperty({ type: String, description: 'The key asked for' })
  readonly key_id!: string;

  @ApiProperty({ type: String, description: 'Its license (the first key of the rotation chain): the devices are the license’s' })
  readonly license_id!: string;

  @ApiProperty({ type: 'integer', description: 'How many hold a seat' })
  readonly active!: number;

  @ApiProperty({
    type: () => [LicenseDeviceResponse],
    description: 'Active first, then lapsed, then deactivated; each newest activation first',
  })
  readonly devices!: LicenseDeviceResponse[];
}
