import { Module } from '@nestjs/common';
import { ActivateDevice, DeactivateDevice, HeartbeatDevice, ReleaseLapsedDevices } from '@svc/application';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { DeviceLeaseReleaser } from './device-lease-releaser';
import { DevicesController } from './devices.controller';

/** CONTRACT 23: devices, the license's seats, and the job that marks lapsed leases. */
@Module({
  imports: [ApiKeyAuthModule],
  controllers: [DevicesController],
  providers: [ActivateDevice, HeartbeatDevice, DeactivateDevice, ReleaseLapsedDevices, DeviceLeaseReleaser],
})
export class DevicesModule {}
