import { SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Where an endpoint reads the key (CONTRACT 2); the first source present wins. */
export type KeySource = 'body' | 'header' | 'query';

export const KEY_SOURCES = 'svc:key-sources';

/** Declares the key sources of a route or controller, in order of precedence. */
export const KeySources = (...sources: KeySource[]) => SetMetadata(KEY_SOURCES, sources);

/** Reads the presented key from the first source that has one; `undefined` when none does. */
export function presentedKey(request: FastifyRequest, sources: readonly KeySource[]): unknown {
  for (const source of sources) {
    const value =
      source === 'header'
        ? request.headers['x-api-key']
        : source === 'query'
          ? (request.query as Record<string, unknown> | undefined)?.api_key
          : (request.body as Record<string, unknown> | undefined)?.api_key;
    if (value !== undefined) return value;
  }
  return undefined;
}
