export * from './app-config';
export * from './config.error';
export * from './load-config';
export * from './config.module';
export * from './license-keys';
export * from './trust-proxy';
export * from './database-label';
