import { Module } from '@nestjs/common';
import { KeyRevocation, OfflineLicenses, RefreshApiKey, RevokeApiKey, ValidateApiKey } from '@svc/application';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { AuthController } from './auth.controller';

/** SPEC 4.1-4.3: validate, refresh and revoke, for whoever holds a key. */
@Module({
  imports: [ApiKeyAuthModule],
  controllers: [AuthController],
  providers: [ValidateApiKey, RefreshApiKey, RevokeApiKey, KeyRevocation, OfflineLicenses],
})
export class AuthModule {}
