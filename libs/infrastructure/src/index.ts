export * from './infrastructure.module';
export * from './crypto/sha256-secret-hasher';
export * from './crypto/random-id-generator';
export * from './time/system-clock';
