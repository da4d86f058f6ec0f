import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { CreateOperator, ListOperators, ReplaceOperatorToken, ShowOperator, UpdateOperator } from '@svc/application';
import {
  OperatorResponse,
  OperatorWithTokenResponse,
  SessionResponse,
  operatorViewOf,
  operatorWithTokenViewOf,
  sessionViewOf,
  OperatorListResponse,
} from '@svc/presentation';
import { AdminAuth } from '../../../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../../admin-auth/admin-principal';
import { ALWAYS, ApiErrors, BODY, PATH } from '../../../openapi/api-errors.decorator';
import { CreateOperatorRequest, UpdateOperatorRequest } from '../dto/operator.request';

/** Operators, their roles and tokens (CONTRACT 21), for owners; and who the caller is, for everyone. */
@ApiTags('admin')
@SkipThrottle()
@Controller()
export class AdminOperatorsController {
  constructor(
    private readonly listOperators: ListOperators,
    private readonly createOperator: CreateOperator,
    private readonly showOperator: ShowOperator,
    private readonly updateOperator: UpdateOperator,
    private readonly replaceOperatorToken: ReplaceOperatorToken,
  ) {}

  @Get('me')
  @AdminAuth('session.read')
  @ApiOperation({
    summary: 'Who is calling',
    description:
      'The caller\'s operator record, role and permissions; { operator_id: null, name: "bootstrap", role: "owner" } for ADMIN_TOKEN.',
  })
  @ApiOkResponse({ type: SessionResponse, description: 'The caller' })
  @ApiErrors(...ALWAYS)
  me(@CurrentAdmin() admin: AdminPrincipal): SessionResponse {
    return sessionViewOf(admin.operator);
  }

  @Get('operators')
  @AdminAuth('operators.manage')
  @ApiOperation({ summary: 'Every operator', description: 'Oldest first; never a token or its digest.' })
  @ApiOkResponse({ type: OperatorListResponse, description: 'The operators' })
  @ApiErrors(...ALWAYS)
  async list(): Promise<{ operators: OperatorResponse[] }> {
    return { operators: (await this.listOperators.execute()).map(operatorViewOf) };
  }

  @Post('operators')
  @HttpCode(201)
  @AdminAuth('operators.manage')
  @ApiOperation({ summary: 'Create an operator', description: 'Its admin token is in this answer only. Audited (operator.created).' })
  @ApiBody({ type: CreateOperatorRequest })
  @ApiCreatedResponse({ type: OperatorWithTokenResponse, description: 'The operator, with its token shown this once' })
  @ApiErrors(...BODY, ...ALWAYS)
  async create(@CurrentAdmin() admin: AdminPrincipal, @Body() body: CreateOperatorRequest): Promise<OperatorWithTokenResponse> {
    return operatorWithTokenViewOf(
      await this.createOperator.execute({ name: body.name, email: body.email, role: body.role, actor: admin.actor }),
    );
  }

  @Get('operators/:operator_id')
  @AdminAuth('operators.manage')
  @ApiOperation({ summary: 'One operator' })
  @ApiOkResponse({ type: OperatorResponse, description: 'The operator' })
  @ApiErrors(...PATH, 'OPERATOR_NOT_FOUND', ...ALWAYS)
  async show(@Param('operator_id') operatorId: string): Promise<OperatorResponse> {
    return operatorViewOf(await this.showOperator.execute(operatorId));
  }

  @Patch('operators/:operator_id')
  @AdminAuth('operators.manage')
  @ApiOperation({
    summary: "Change an operator's name, e-mail or role, or disable it",
    description:
      'A disabled operator is refused (401) on its next request on every instance. Without ADMIN_TOKEN the last enabled ' +
      'owner cannot be disabled or demoted (409 LAST_OWNER). Audited (operator.updated).',
  })
  @ApiBody({ type: UpdateOperatorRequest })
  @ApiOkResponse({ type: OperatorResponse, description: 'The operator' })
  @ApiErrors(...BODY, 'OPERATOR_NOT_FOUND', 'LAST_OWNER', ...ALWAYS)
  async update(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('operator_id') operatorId: string,
    @Body() body: UpdateOperatorRequest = new UpdateOperatorRequest(),
  ): Promise<OperatorResponse> {
    const change = { name: body.name, email: body.email, role: body.role, disabled: body.disabled };
    return operatorViewOf(await this.updateOperator.execute({ operatorId, change: withoutUndefined(change), actor: admin.actor }));
  }

  @Post('operators/:operator_id/token')
  @HttpCode(201)
  @AdminAuth('operators.manage')
  @ApiOperation({
    summary: "Replace an operator's token",
    description:
      'A new token, shown this once; the earlier one is refused (401) at once on every instance. Audited (operator.token_replaced).',
  })
  @ApiCreatedResponse({ type: OperatorWithTokenResponse, description: 'The operator, with its new token shown this once' })
  @ApiErrors(...PATH, 'OPERATOR_NOT_FOUND', ...ALWAYS)
  async replaceToken(@CurrentAdmin() admin: AdminPrincipal, @Param('operator_id') operatorId: string): Promise<OperatorWithTokenResponse> {
    return operatorWithTokenViewOf(await this.replaceOperatorToken.execute(operatorId, admin.actor));
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
