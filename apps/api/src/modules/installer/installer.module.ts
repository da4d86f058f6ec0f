import { Module } from '@nestjs/common';
import { IssueRepoToken } from '@svc/application';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { InstallerController, InstallerHeadController } from './installer.controller';

/** SPEC 4.4: the installer's read-only token (the token source is bound by InfrastructureModule). */
@Module({ imports: [ApiKeyAuthModule], controllers: [InstallerHeadController, InstallerController], providers: [IssueRepoToken] })
export class InstallerModule {}
