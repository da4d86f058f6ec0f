import { ModelRecordView } from '@svc/application';

/** SPEC 4.6: the models the key may load and their count. */
export interface ModelListResponse {
  readonly models: readonly ModelRecordView[];
  readonly total: number;
}
