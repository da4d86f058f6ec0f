import { Module } from '@nestjs/common';
import { RefreshApiKey, RevokeApiKey, RotateApiKey, ValidateApiKey } from '@svc/application';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { KeyLifecycleModule } from '../key-lifecycle/key-lifecycle.module';
import { AuthController } from './auth.controller';

/** SPEC 4.1-4.3 and CONTRACT 16: validate, refresh, revoke and rotate, for whoever holds a key. */
@Module({
  imports: [ApiKeyAuthModule, KeyLifecycleModule],
  controllers: [AuthController],
  providers: [ValidateApiKey, RefreshApiKey, RevokeApiKey, RotateApiKey],
})
export class AuthModule {}
