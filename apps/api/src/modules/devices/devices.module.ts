import { Module } from '@nestjs/common';
import { ActivateDevice, DeactivateDevice, HeartbeatDevice } from '@svc/application';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { DevicesController } from './devices.controller';

/** CONTRACT 23: devices, the license's seats. */
@Module({ imports: [ApiKeyAuthModule], controllers: [DevicesController], providers: [ActivateDevice, HeartbeatDevice, DeactivateDevice] })
export class DevicesModule {}
