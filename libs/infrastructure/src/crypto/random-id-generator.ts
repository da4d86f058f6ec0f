import { randomBytes, randomFillSync } from 'node:crypto';
import { IdGenerator, type IdKind, RandomSource } from '@svc/domain';

/** Random bytes drawn 4 KiB at a time: ids need 12 each, and one `randomBytes` call per id cost more than the rest of the id. */
const POOL_BYTES = 4096;
/** An id's random part: 96 bits. */
const ID_BYTES = 12;

/**
 * `<kind>_` and 96 random bits in hex, e.g. `key_5f2c…`. The bits come from
 * node:crypto's CSPRNG, filled into a pool 4 KiB at a time (as Node does for
 * `randomUUID`), and every byte is used once: a `randomBytes(12)` call per id
 * costs many times a copy from the pool, and an event's id is made on every
 * accepted analytics call.
 */
export class RandomIdGenerator extends IdGenerator {
  private readonly pool = Buffer.allocUnsafe(POOL_BYTES);
  private used = POOL_BYTES;

  newId(kind: IdKind): string {
    if (this.used + ID_BYTES > POOL_BYTES) {
      randomFillSync(this.pool);
      this.used = 0;
    }
    const id = `${kind}_${this.pool.toString('hex', this.used, this.used + ID_BYTES)}`;
    this.used += ID_BYTES;
    return id;
  }
}

export class CryptoRandomSource extends RandomSource {
  hex(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  }
}
