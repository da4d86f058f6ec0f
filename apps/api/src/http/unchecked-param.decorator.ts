import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * A path parameter handed over as sent, past the global pipe's NUL check
 * (request-validation.ts): only for a value no database ever sees, such as
 * the model host's file names, which the link's signature and the model
 * store judge (an unsigned `x%00.bin` is LINK_INVALID, a signed one NOT_FOUND).
 */
export const UncheckedParam = createParamDecorator(
  (name: string, execution: ExecutionContext): unknown =>
    execution.switchToHttp().getRequest<FastifyRequest<{ Params: Record<string, string> }>>().params[name],
);
