/**
 * The delivery side's shapes, shared by `apps/api` and `apps/cli`: the
 * response classes (`*.response.ts`, with `@ApiProperty`: the one statement of
 * each answer's fields, and the OpenAPI document's schemas), the view
 * functions that build them from use-case results and domain objects
 * (`*-views.ts`), the models' download addresses, and the request DTOs both
 * read (class-validator rules, judged the same way by the API's ValidationPipe
 * and by the CLI). Nothing under `libs/domain` or `libs/application` imports this.
 */
export * from './keys/key.response';
export * from './keys/rotated-key.response';
export * from './keys/key-views';
export * from './models/model-download';
export * from './models/model-record.response';
export * from './models/model-views';
export * from './models/model-record.request';
export * from './validation/request-validation';
export * from './errors/public-hint';
export * from './admin/console.response';
export * from './admin/console-views';
export * from './admin/page-cursor';
export * from './operators/operator.response';
export * from './operators/operator-views';
export * from './webhooks/webhook.response';
export * from './webhooks/webhook-views';
export * from './devices/license-device.response';
export * from './devices/license-device-views';
