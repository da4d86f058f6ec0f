import { ApiProperty } from '@nestjs/swagger';
import { type DeviceSeat } from '@svc/application';
import { type Device, toSecondTimestamp } from '@svc/domain';

/** A device as the SDK sees it (CONTRACT 23). */
export class DeviceResponse {
  @ApiProperty({ type: String, example: 'dev_5f2c0a9e1b7d3c4e8f6a2b1c' })
  readonly device_id!: string;

  @ApiProperty({ type: String, nullable: true, example: 'EEG lab PC 2' })
  readonly name!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'windows-x64' })
  readonly platform!: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-28T15:04:05Z' })
  readonly activated_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-28T15:04:05Z' })
  readonly last_seen_at!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When the seat is released unless the device is seen again (null: the tier gives no lease, the seat is held until deactivated)',
    example: null,
  })
  readonly lease_expires_at!: string | null;
}

export function deviceResponseOf(seat: DeviceSeat): DeviceResponse {
  return {
    device_id: seat.device.id,
    name: seat.device.name,
    platform: seat.device.platform,
    activated_at: toSecondTimestamp(seat.device.activatedAt),
    last_seen_at: toSecondTimestamp(seat.device.lastSeenAt),
    lease_expires_at: seat.leaseExpiresAt === null ? null : toSecondTimestamp(seat.leaseExpiresAt),
  };
}

/** POST /v1/devices/deactivate's answer: the device whose seat was freed. */
export class DeactivatedDeviceResponse {
  @ApiProperty({ type: String, example: 'dev_5f2c0a9e1b7d3c4e8f6a2b1c' })
  readonly device_id!: string;

  @ApiProperty({ type: Boolean, enum: [true] })
  readonly deactivated!: true;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-28T15:04:05Z' })
  readonly deactivated_at!: string;
}

export function deactivatedDeviceResponseOf(device: Device): DeactivatedDeviceResponse {
  return { device_id: device.id, deactivated: true, deactivated_at: toSecondTimestamp(device.deactivatedAt!) };
}
