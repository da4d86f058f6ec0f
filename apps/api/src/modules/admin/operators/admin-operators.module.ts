import { Module } from '@nestjs/common';
import { CreateOperator, ListOperators, ReplaceOperatorToken, ShowOperator, UpdateOperator } from '@svc/application';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { AdminOperatorsController } from './admin-operators.controller';

/** Operators and their tokens (CONTRACT 21): list, create, show, change, replace a token; and GET /me. */
@Module({
  imports: [AdminAuthModule],
  controllers: [AdminOperatorsController],
  providers: [ListOperators, CreateOperator, ShowOperator, UpdateOperator, ReplaceOperatorToken],
})
export class AdminOperatorsModule {}
