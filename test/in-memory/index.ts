/** In-memory adapters of the persistence ports and their module, for tests only (InfrastructureModule never binds them). */
export * from './in-memory-api-key.repository';
export * from './in-memory-user.repository';
export * from './in-memory-usage.repository';
export * from './in-memory-audit-log';
export * from './in-memory-key-context.repository';
export * from './in-memory-key-directory';
export * from './in-memory-analytics-event.repository';
export * from './in-memory-model.repository';
export * from './in-memory-generated-secrets';
export * from './in-memory-persistence.module';
export * from './in-memory-operator.repository';
export * from './in-memory-unit-of-work';
export * from './in-memory-idempotency-keys';
export * from './in-memory-device.repository';
export * from './in-memory-stored-license.repository';
