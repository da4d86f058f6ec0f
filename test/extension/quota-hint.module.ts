import { Module } from '@nestjs/common';
import { ApiKeyAuthModule } from '../../apps/api/src/api-key-auth/api-key-auth.module';
import { QuotaHintController } from './quota-hint.controller';
import { ReadQuotaHint } from './quota-hint.use-case';

/**
 * A feature module built exactly as docs/EXTENDING.md says (test/e2e/extending.e2e-spec.ts
 * mounts it): it imports ApiKeyAuthModule and provides its own use case.
 */
@Module({ imports: [ApiKeyAuthModule], controllers: [QuotaHintController], providers: [ReadQuotaHint] })
export class QuotaHintModule {}
