/**
 * The delivery side's shapes, shared by `apps/api` and `apps/cli`: the snake
 * case JSON views of use-case results and domain objects, the models'
 * download addresses, and the request DTOs both read (class-validator rules,
 * judged the same way by the API's ValidationPipe and by the CLI). Nothing
 * under `libs/domain` or `libs/application` imports this.
 */
export * from './keys/key-views';
export * from './models/model-download';
export * from './models/model-views';
export * from './models/model-record.request';
export * from './validation/request-validation';
export * from './errors/public-hint';
export * from './admin/console-views';
export * from './admin/page-cursor';
export * from './operators/operator-views';
export * from './webhooks/webhook-views';
