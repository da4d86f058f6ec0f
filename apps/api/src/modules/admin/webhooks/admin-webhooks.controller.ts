import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import {
  CreateWebhook,
  DeleteWebhook,
  ListWebhookDeliveries,
  ListWebhooks,
  ReplaceWebhookSecret,
  RetryWebhookDelivery,
  SendWebhookTest,
  ShowWebhook,
  UpdateWebhook,
} from '@svc/application';
import { Clock, InvalidRequestError, roleAllows } from '@svc/domain';
import {
  WebhookDeliveryResponse,
  WebhookEndpointResponse,
  type WebhookEndpointViewOptions,
  WebhookEndpointWithSecretResponse,
  decodeCursor,
  webhookDeliveryPageOf,
  webhookDeliveryViewOf,
  webhookEndpointViewOf,
  webhookEndpointWithSecretViewOf,
  WebhookDeliveryPageResponse,
  WebhookEndpointListResponse,
} from '@svc/presentation';
import { AdminAuth } from '../../../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../../admin-auth/admin-principal';
import { ALWAYS, ApiErrors, BODY, PATH } from '../../../openapi/api-errors.decorator';
import { pageLimitOf } from '../dto/console.query';
import { CreateWebhookRequest, DEFAULT_DELIVERY_PAGE, ListDeliveriesQuery, UpdateWebhookRequest } from '../dto/webhook.request';

const MASKED =
  'To a role that may not change endpoints (below admin), each query value of the url shows as *** ' +
  '(?token=abc -> ?token=***), as do a fragment and a user or password.';

/** Who sees an endpoint's address in full: whoever may change it (webhooks.write); others, with its query values masked. */
function viewOptionsFor(admin: AdminPrincipal): WebhookEndpointViewOptions {
  return { maskUrl: !roleAllows(admin.role, 'webhooks.write') };
}

/** Webhook endpoints, their secrets, test events and deliveries (CONTRACT 20). */
@ApiTags('admin')
@SkipThrottle()
@Controller('webhooks')
export class AdminWebhooksController {
  constructor(
    private readonly createWebhook: CreateWebhook,
    private readonly listWebhooks: ListWebhooks,
    private readonly showWebhook: ShowWebhook,
    private readonly updateWebhook: UpdateWebhook,
    private readonly deleteWebhook: DeleteWebhook,
    private readonly replaceWebhookSecret: ReplaceWebhookSecret,
    private readonly sendWebhookTest: SendWebhookTest,
    private readonly listWebhookDeliveries: ListWebhookDeliveries,
    private readonly retryWebhookDelivery: RetryWebhookDelivery,
    private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @AdminAuth('webhooks.write')
  @ApiOperation({
    summary: 'Add a webhook endpoint',
    description:
      'An https address that resolves to no loopback, private, link-local or metadata address (unless WEBHOOK_ALLOW_INSECURE), ' +
      'with no user or password in it, and the event types it receives. Its signing secret (whsec_...) is in this answer only. Audited (webhook.created).',
  })
  @ApiBody({ type: CreateWebhookRequest })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretResponse, description: 'The endpoint, with its secret shown this once' })
  @ApiErrors(...BODY, ...ALWAYS)
  async create(@CurrentAdmin() admin: AdminPrincipal, @Body() body: CreateWebhookRequest): Promise<WebhookEndpointWithSecretResponse> {
    const { endpoint, secret } = await this.createWebhook.execute({
      url: body.url,
      events: body.events,
      description: body.description,
      actor: admin.actor,
    });
    return webhookEndpointWithSecretViewOf(endpoint, secret, this.clock.now());
  }

  @Get()
  @AdminAuth('webhooks.read')
  @ApiOperation({ summary: 'Every webhook endpoint', description: `Oldest first; never a secret. ${MASKED}` })
  @ApiOkResponse({ type: WebhookEndpointListResponse, description: 'The endpoints' })
  @ApiErrors(...ALWAYS)
  async list(@CurrentAdmin() admin: AdminPrincipal): Promise<{ webhooks: WebhookEndpointResponse[] }> {
    const now = this.clock.now();
    const options = viewOptionsFor(admin);
    return { webhooks: (await this.listWebhooks.execute()).map((e) => webhookEndpointViewOf(e, now, options)) };
  }

  @Get(':id')
  @AdminAuth('webhooks.read')
  @ApiOperation({ summary: 'One webhook endpoint', description: `Never its secret. ${MASKED}` })
  @ApiOkResponse({ type: WebhookEndpointResponse, description: 'The endpoint' })
  @ApiErrors(...PATH, 'WEBHOOK_NOT_FOUND', ...ALWAYS)
  async show(@CurrentAdmin() admin: AdminPrincipal, @Param('id') id: string): Promise<WebhookEndpointResponse> {
    return webhookEndpointViewOf(await this.showWebhook.execute(id), this.clock.now(), viewOptionsFor(admin));
  }

  @Patch(':id')
  @AdminAuth('webhooks.write')
  @ApiOperation({
    summary: 'Change a webhook endpoint',
    description: 'Its url (checked as when added), events, description, or enabled. Audited (webhook.updated).',
  })
  @ApiBody({ type: UpdateWebhookRequest })
  @ApiOkResponse({ type: WebhookEndpointResponse, description: 'The endpoint' })
  @ApiErrors(...BODY, 'WEBHOOK_NOT_FOUND', ...ALWAYS)
  async update(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('id') id: string,
    @Body() body: UpdateWebhookRequest = new UpdateWebhookRequest(),
  ): Promise<WebhookEndpointResponse> {
    const change = { url: body.url, events: body.events, description: body.description, enabled: body.enabled };
    const updated = await this.updateWebhook.execute(id, change, admin.actor);
    return webhookEndpointViewOf(updated, this.clock.now());
  }

  @Delete(':id')
  @HttpCode(204)
  @AdminAuth('webhooks.write')
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'With its deliveries. Audited (webhook.deleted).' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(...PATH, 'WEBHOOK_NOT_FOUND', ...ALWAYS)
  async delete(@CurrentAdmin() admin: AdminPrincipal, @Param('id') id: string): Promise<void> {
    await this.deleteWebhook.execute(id, admin.actor);
  }

  @Post(':id/secret')
  @HttpCode(201)
  @AdminAuth('webhooks.write')
  @ApiOperation({
    summary: "Replace an endpoint's signing secret",
    description:
      'A new secret, shown this once; the old one keeps signing beside it (two signatures in webhook-signature) for 24 hours. ' +
      'Audited (webhook.secret_replaced).',
  })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretResponse, description: 'The endpoint, with its new secret shown this once' })
  @ApiErrors(...PATH, 'WEBHOOK_NOT_FOUND', ...ALWAYS)
  async replaceSecret(@CurrentAdmin() admin: AdminPrincipal, @Param('id') id: string): Promise<WebhookEndpointWithSecretResponse> {
    const { endpoint, secret } = await this.replaceWebhookSecret.execute(id, admin.actor);
    return webhookEndpointWithSecretViewOf(endpoint, secret, this.clock.now());
  }

  @Post(':id/test')
  @HttpCode(202)
  @AdminAuth('webhooks.test')
  @ApiOperation({ summary: 'Send a test event', description: 'A webhook.test message to this endpoint, delivered like any other.' })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse, description: 'The delivery, pending' })
  @ApiErrors(...PATH, 'WEBHOOK_NOT_FOUND', ...ALWAYS)
  async test(@CurrentAdmin() admin: AdminPrincipal, @Param('id') id: string): Promise<WebhookDeliveryResponse> {
    return webhookDeliveryViewOf(await this.sendWebhookTest.execute(id, admin.actor));
  }

  @Get(':id/deliveries')
  @AdminAuth('webhooks.read')
  @ApiOperation({
    summary: "An endpoint's deliveries",
    description: 'Newest first, a page at a time (pass next_cursor as cursor), optionally of one status.',
  })
  @ApiOkResponse({ type: WebhookDeliveryPageResponse, description: 'A page of deliveries' })
  @ApiErrors('INVALID_REQUEST', 'WEBHOOK_NOT_FOUND', ...ALWAYS)
  async deliveries(
    @Param('id') id: string,
    @Query() query: ListDeliveriesQuery,
  ): Promise<{ deliveries: WebhookDeliveryResponse[]; next_cursor: string | null }> {
    const position = query.cursor === undefined ? undefined : decodeCursor('deliveries', query.cursor);
    if (position === null) throw new InvalidRequestError('cursor must be the next_cursor of an earlier page');
    const limit = pageLimitOf(query.limit) ?? DEFAULT_DELIVERY_PAGE;
    const after = position === undefined ? undefined : { createdAt: position.at, id: position.id };
    const page = await this.listWebhookDeliveries.execute({ endpointId: id, status: query.status, after, limit });
    return webhookDeliveryPageOf(page, limit);
  }

  @Post(':id/deliveries/:delivery_id/retry')
  @HttpCode(202)
  @AdminAuth('webhooks.retry')
  @ApiOperation({
    summary: 'Retry a delivery',
    description: 'Due again at once, whatever its status (one more attempt). Audited (webhook.delivery_retried).',
  })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponse, description: 'The delivery, pending' })
  @ApiErrors(...PATH, 'WEBHOOK_NOT_FOUND', 'DELIVERY_NOT_FOUND', ...ALWAYS)
  async retry(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('id') id: string,
    @Param('delivery_id') deliveryId: string,
  ): Promise<WebhookDeliveryResponse> {
    return webhookDeliveryViewOf(await this.retryWebhookDelivery.execute(id, deliveryId, admin.actor));
  }
}
