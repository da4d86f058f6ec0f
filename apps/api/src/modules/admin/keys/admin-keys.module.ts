import { Module } from '@nestjs/common';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { IssueApiKey, ListAudit, ListKeys, RevokeKeyById, RotateKeyById, ShowApiKey, UpdateApiKey } from '@svc/application';
import { KeyLifecycleModule } from '../../key-lifecycle/key-lifecycle.module';
import { AdminKeysController } from './admin-keys.controller';

/** The operators' key calls (CONTRACT 12, 16, 17): issue, show, search, change, revoke, rotate, and the audit trail. */
@Module({
  imports: [AdminAuthModule, KeyLifecycleModule],
  controllers: [AdminKeysController],
  providers: [IssueApiKey, ShowApiKey, UpdateApiKey, RevokeKeyById, RotateKeyById, ListAudit, ListKeys],
})
export class AdminKeysModule {}
