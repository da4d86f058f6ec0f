import { applyDecorators } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { KeySource, KeySources } from '../http/key-sources';
import { API_KEY_HEADER, API_KEY_QUERY } from './openapi';

const SCHEME: Record<Exclude<KeySource, 'body'>, string> = { header: API_KEY_HEADER, query: API_KEY_QUERY };

/**
 * Where a route reads the API key (CONTRACT 2), for the guards (`KeySources`,
 * first found wins) and for the OpenAPI document in one place: the header and
 * query placements become security requirements; the body placement becomes
 * the requirement `{}` (no header or query credential needed: the key is the
 * body's `api_key` field, documented in the request schema).
 */
export function AcceptsKeyFrom(...sources: KeySource[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    KeySources(...sources),
    ...sources.map((source) => (source === 'body' ? ApiSecurity({}) : ApiSecurity(SCHEME[source]))),
  );
}
