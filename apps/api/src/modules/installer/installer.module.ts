import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../http/api-key.guard';
import { InstallerController, InstallerHeadController } from './installer.controller';

@Module({ controllers: [InstallerHeadController, InstallerController], providers: [ApiKeyGuard] })
export class InstallerModule {}
