import { randomBytes, randomUUID } from 'node:crypto';
import { IdGenerator, type IdKind, RandomSource } from '@svc/domain';

export class CryptoRandomSource extends RandomSource {
  hex(bytes: number): string {
    return randomBytes(bytes).toString('hex');
  }
}

/** The id's random part: 48 bits, after 48 bits of time. */
const RANDOM_BYTES = 6;

/**
 * `<kind>_` and 24 hex digits: the milliseconds since 1970 in 12 (48 bits, as
 * UUIDv7 begins), then 48 random bits (node:crypto's CSPRNG, through randomUUID, unless given another source), e.g. `evt_019ad4e1c3b2f05e9a7c41d8`.
 * Ids made later sort after earlier ones, so a table's primary-key index takes
 * new rows at its end instead of at random places: a batch of a hundred
 * events writes a few index pages, not a hundred (docs/PERFORMANCE.md). Ids
 * made in one millisecond differ in their random part. They stay 24 hex
 * digits: logs and stored texts redact runs of 32 or more as key-shaped.
 */
export class TimeOrderedIdGenerator extends IdGenerator {
  constructor(private readonly random: RandomSource | null = null) {
    super();
  }

  newId(kind: IdKind): string {
    return `${kind}_${Date.now().toString(16).padStart(12, '0')}${this.random === null ? randomTail() : this.random.hex(RANDOM_BYTES)}`;
  }
}

/**
 * 48 random bits as 12 hex digits: the last group of a version 4 UUID, all of
 * whose 48 bits are random. node:crypto's randomUUID draws from a cache of
 * CSPRNG bytes it refills 128 UUIDs at a time (its documented entropy cache),
 * where randomBytes makes a buffer and calls into the CSPRNG for each id.
 */
function randomTail(): string {
  return randomUUID().slice(24);
}
