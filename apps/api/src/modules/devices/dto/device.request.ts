import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FINGERPRINT_LENGTH, FINGERPRINT_RULE, MAX_DEVICE_NAME_LENGTH, MAX_DEVICE_PLATFORM_LENGTH } from '@svc/domain';
import { IsPlainText } from '@svc/presentation';
import { IsDefined, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { CheckedBySchema } from '../../../http/body-schema';
import { KeyRequest } from '../../../shared/dto/key.request';

const FINGERPRINT = { message: FINGERPRINT_RULE };
const textRule = (field: string, max: number) => ({ message: `${field} must be a string of at most ${max} characters` });

/** The device's fingerprint (CONTRACT 23): the SDK derives it; the service keeps only its SHA-256. */
function FingerprintProperty(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: String,
      minLength: FINGERPRINT_LENGTH.min,
      maxLength: FINGERPRINT_LENGTH.max,
      description: 'What the SDK derives to name its machine (e.g. a hash of the machine id); the service keeps only its SHA-256',
      example: '5e0f8c1d6b2a4f7e9c3d1a0b8e6f4d2c',
    }),
    IsDefined(FINGERPRINT),
    IsString(FINGERPRINT),
    Length(FINGERPRINT_LENGTH.min, FINGERPRINT_LENGTH.max, FINGERPRINT),
  );
}

/** POST /v1/devices/heartbeat and /deactivate (CONTRACT 23). */
@CheckedBySchema()
export class DeviceRequest extends KeyRequest {
  @FingerprintProperty()
  readonly fingerprint!: string;
}

/** POST /v1/devices/activate (CONTRACT 23): the fingerprint, and a name and platform to show operators. */
@CheckedBySchema()
export class ActivateDeviceRequest extends DeviceRequest {
  @ApiPropertyOptional({ type: String, maxLength: MAX_DEVICE_NAME_LENGTH, nullable: true, example: 'EEG lab PC 2' })
  @IsOptional()
  @IsString(textRule('name', MAX_DEVICE_NAME_LENGTH))
  @MaxLength(MAX_DEVICE_NAME_LENGTH, textRule('name', MAX_DEVICE_NAME_LENGTH))
  @IsPlainText('name')
  readonly name?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: MAX_DEVICE_PLATFORM_LENGTH, nullable: true, example: 'windows-x64' })
  @IsOptional()
  @IsString(textRule('platform', MAX_DEVICE_PLATFORM_LENGTH))
  @MaxLength(MAX_DEVICE_PLATFORM_LENGTH, textRule('platform', MAX_DEVICE_PLATFORM_LENGTH))
  @IsPlainText('platform')
  readonly platform?: string | null;
}
