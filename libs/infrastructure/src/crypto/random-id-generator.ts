import { randomBytes } from 'node:crypto';
import { IdGenerator, type IdKind, RandomSource } from '@svc/domain';

/** An id's random part: 96 bits. */
const ID_BYTES = 12;

/** `<kind>_` and 96 random bits from node:crypto's CSPRNG in hex, e.g. `key_5f2c…`. */
export class RandomIdGenerator extends IdGenerator {
  newId(kind: IdKind): string {
    return `${kind}_${randomBytes(ID_BYTES).toString('hex')}`;
  }
}

export class CryptoRandomSource extends RandomSource {
  hex(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  }
}
