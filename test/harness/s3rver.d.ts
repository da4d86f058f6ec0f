/** The part of s3rver 3.7 (untyped, CommonJS) the test harness uses: see s3-server.ts. */
declare module 's3rver' {
  import type { Server } from 'node:http';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: Array<{ name: string }>;
  }

  /** A Koa application: `middleware` is Koa's own list, run in order. */
  class S3rver {
    constructor(options: S3rverOptions);
    middleware: unknown[];
    httpServer: Server;
    run(): Promise<unknown>;
  }

  export = S3rver;
}
