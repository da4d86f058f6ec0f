import 'reflect-metadata';
import { type Type } from '@nestjs/common';
import { requestValidationPipe } from '../../apps/api/src/http/request-validation';

/** A body as the API reads it: the global ValidationPipe on the route's DTO. */
export function readBody<T>(metatype: Type<T>, body: object): Promise<T> {
  return requestValidationPipe().transform(body, { type: 'body', metatype });
}

/** The `message` (hint) of the 400 INVALID_REQUEST the pipe answers for a body; fails the test if it accepts it. */
export async function invalidRequestHintOf<T>(metatype: Type<T>, body: object): Promise<string | undefined> {
  const error = await readBody(metatype, body).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toMatchObject({ code: 'INVALID_REQUEST' });
  return (error as { hint?: string }).hint;
}
