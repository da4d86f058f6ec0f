import { randomBytes } from 'node:crypto';
import { IdGenerator, type IdKind, RandomSource } from '@svc/domain';

/** `<kind>_` and 96 random bits in hex, e.g. `key_5f2c…`. */
export class RandomIdGenerator extends IdGenerator {
  newId(kind: IdKind): string {
    return `${kind}_${randomBytes(12).toString('hex')}`;
  }
}

export class CryptoRandomSource extends RandomSource {
  hex(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  }
}
