import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpEdgeError } from './http-error';

/**
 * `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time (over
 * digests, so the length of the token is not revealed either).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(config: AppConfig) {
    this.expected = digest(config.adminToken ?? '');
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw adminTokenRefused();
    }
    return true;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The answer to a missing or wrong admin token. */
export function adminTokenRefused(): HttpEdgeError {
  return new HttpEdgeError('UNAUTHORIZED', 'Unauthorized', 'Send Authorization: Bearer <admin token>', { 'www-authenticate': 'Bearer' });
}
