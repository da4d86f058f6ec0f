import { Module } from '@nestjs/common';
import { LicenseController } from './license.controller';

/** CONTRACT 15: the JWKS of the offline licenses (the signer is an adapter, bound once by InfrastructureModule). */
@Module({ controllers: [LicenseController] })
export class LicenseModule {}
