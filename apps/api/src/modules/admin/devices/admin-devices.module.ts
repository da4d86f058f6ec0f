import { Module } from '@nestjs/common';
import { DeactivateDevice, ListLicenseDevices } from '@svc/application';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { AdminDevicesController } from './admin-devices.controller';

/** The operators' device calls (CONTRACT 23): list a key's license's devices, deactivate one. */
@Module({
  imports: [AdminAuthModule],
  controllers: [AdminDevicesController],
  providers: [ListLicenseDevices, DeactivateDevice],
})
export class AdminDevicesModule {}
