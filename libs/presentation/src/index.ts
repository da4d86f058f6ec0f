/**
 * The delivery side's shapes, shared by `apps/api` and `apps/cli`: the snake
 * case JSON views of use-case results and domain objects, and the models'
 * download addresses. Nothing under `libs/domain` or `libs/application`
 * imports this.
 */
export * from './keys/key-views';
export * from './models/model-download';
export * from './models/model-views';
