import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ModelStore, RangeNotSatisfiableError } from '@svc/domain';
import { sha256Hex } from '../harness/sha256';

/**
 * What the ModelStore contract needs from an adapter: a store over an empty
 * place, a way to let go of it, and every name the place holds (temporary
 * files included), so a failed write can be shown to leave nothing behind.
 */
export interface ModelStoreFixture {
  readonly store: ModelStore;
  /** Every name the store holds, in no particular order: its files and any temporary ones (unfinished uploads). */
  names(): Promise<string[]>;
  /** Removes whatever the store wrote; called after each test. */
  dispose(): Promise<void>;
}

/** Called before each test; must give an empty store. */
export type MakeModelStore = () => Promise<ModelStoreFixture>;

const LABEL = 'motor_imagery_4class_v1-1.0.0';

async function* chunksOf(...chunks: Array<Uint8Array | string>): AsyncIterable<Uint8Array | string> {
  for (const chunk of chunks) {
    await new Promise((resolve) => setImmediate(resolve));
    yield chunk;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(typeof part === 'string' ? Buffer.from(part) : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/** The behaviour every ModelStore adapter must share: whole files or none, hashed as written, unique URL-safe names. */
export function describeModelStoreContract(make: MakeModelStore): void {
  describe(`${ModelStore.name} contract`, () => {
    let current: ModelStoreFixture | undefined;
    beforeEach(async () => {
      current = await make();
    });
    afterEach(async () => {
      await current?.dispose();
      current = undefined;
    });
    const fixture = (): ModelStoreFixture => {
      if (!current) throw new Error('the fixture is only available inside a test');
      return current;
    };

    /** The bytes of a stored file, and the size `open` announced. */
    async function contentOf(path: string): Promise<{ bytes: Buffer; sizeBytes: number }> {
      const opened = await fixture().store.open(path);
      if (!opened) throw new Error(`${path} is not in the store`);
      expect(opened.stream).toBeInstanceOf(Readable);
      return { bytes: await readAll(opened.stream), sizeBytes: opened.sizeBytes };
    }

    describe('put', () => {
      it('stores bytes given at once, with their SHA-256 and size, under a URL-safe name starting with the label', async () => {
        const bytes = randomBytes(1000);

        const stored = await fixture().store.put(LABEL, bytes);

        expect(stored.sha256).toBe(sha256Hex(bytes));
        expect(stored.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(stored.sizeBytes).toBe(1000);
        expect(stored.path.startsWith(`${LABEL}-`)).toBe(true);
        expect(stored.path.length).toBeGreaterThan(LABEL.length + 1);
        expect(encodeURIComponent(stored.path)).toBe(stored.path);
        expect(await contentOf(stored.path)).toEqual({ bytes, sizeBytes: 1000 });
      });

      it('stores a stream of chunks, strings as UTF-8, hashing and counting the bytes', async () => {
        const parts = [randomBytes(70_000), 'é ✓ 🧠', new Uint8Array(0), randomBytes(3), 'tail'];
        const expected = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

        const stored = await fixture().store.put(LABEL, chunksOf(...parts));

        expect(stored.sha256).toBe(sha256Hex(expected));
        expect(stored.sizeBytes).toBe(expected.length);
        expect(await contentOf(stored.path)).toEqual({ bytes: expected, sizeBytes: expected.length });
      });

      it('stores an empty file (size 0, the SHA-256 of nothing)', async () => {
        const stored = await fixture().store.put(LABEL, chunksOf());

        expect(stored).toEqual({ path: stored.path, sha256: sha256Hex(new Uint8Array(0)), sizeBytes: 0 });
        expect(await contentOf(stored.path)).toEqual({ bytes: Buffer.alloc(0), sizeBytes: 0 });
      });

      it('keeps the bytes as they were read, whatever the caller does with its buffer afterwards', async () => {
        const bytes = Buffer.from('the original bytes');
        const original = Buffer.from(bytes);

        const stored = await fixture().store.put(LABEL, bytes);
        bytes.fill(0);

        expect((await contentOf(stored.path)).bytes).toEqual(original);
      });

      it('gives two files of the same label different names, each with its own bytes', async () => {
        const one = await fixture().store.put(LABEL, Buffer.from('one'));
        const two = await fixture().store.put(LABEL, Buffer.from('two'));

        expect(one.path).not.toBe(two.path);
        expect((await contentOf(one.path)).bytes.toString()).toBe('one');
        expect((await contentOf(two.path)).bytes.toString()).toBe('two');
      });

      it('rejects with the error of a source that fails midway, leaving nothing behind', async () => {
        const f = fixture();
        const kept = await f.store.put(LABEL, Buffer.from('kept'));
        const failure = new Error('the upload was cut off');
        async function* failing(): AsyncIterable<Uint8Array> {
          yield randomBytes(10_000);
          await new Promise((resolve) => setImmediate(resolve));
          yield randomBytes(10_000);
          throw failure;
        }

        await expect(f.store.put(LABEL, failing())).rejects.toBe(failure);

        expect(await f.names()).toEqual([kept.path]);
        expect((await contentOf(kept.path)).bytes.toString()).toBe('kept');
      });

      it('rejects with the error of a source that fails after several megabytes (past a multipart part), leaving nothing behind', async () => {
        const f = fixture();
        const failure = new Error('the upload was cut off after 12 MiB');
        async function* failingLate(): AsyncIterable<Uint8Array> {
          const mebibyte = randomBytes(1024 * 1024);
          for (let i = 0; i < 12; i += 1) {
            await new Promise((resolve) => setImmediate(resolve));
            yield mebibyte;
          }
          throw failure;
        }

        await expect(f.store.put(LABEL, failingLate())).rejects.toBe(failure);

        expect(await f.names()).toEqual([]);
        await expect(f.store.list()).resolves.toEqual([]);
      });

      it.each(['', '../escape', 'a/b', 'Upper_case', '.hidden', 'with space'])('refuses the label %j, storing nothing', async (label) => {
        const f = fixture();
        await expect(f.store.put(label, Buffer.from('x'))).rejects.toThrow();
        expect(await f.names()).toEqual([]);
      });
    });

    describe('open', () => {
      it('answers null for a name the store never gave', async () => {
        const f = fixture();
        const stored = await f.store.put(LABEL, Buffer.from('x'));

        await expect(f.store.open(`${LABEL}-${'0'.repeat(24)}.bin`)).resolves.toBeNull();
        await expect(f.store.open(stored.path.slice(0, -1))).resolves.toBeNull();
        await expect(f.store.open('')).resolves.toBeNull();
        await expect(f.store.open(`../${stored.path}`)).resolves.toBeNull();
      });

      it('streams the same file again on every open', async () => {
        const bytes = randomBytes(200_000);
        const stored = await fixture().store.put(LABEL, bytes);

        const [first, second] = await Promise.all([contentOf(stored.path), contentOf(stored.path)]);

        expect(first.bytes.equals(bytes)).toBe(true);
        expect(second.bytes.equals(bytes)).toBe(true);
        expect(first.sizeBytes).toBe(200_000);
      });

      it('streams the whole file with no range (range null)', async () => {
        const stored = await fixture().store.put(LABEL, Buffer.from('0123456789'));
        const opened = await fixture().store.open(stored.path);
        if (!opened) throw new Error('not opened');
        expect(opened.range).toBeNull();
        // read to its end, which closes the file (left unread, its handle was closed by the garbage collector)
        expect((await readAll(opened.stream)).toString()).toBe('0123456789');
      });

      it.each([
        ['start-end', { start: 2, end: 5 }, { start: 2, end: 5 }, '2345'],
        ['start to the end', { start: 7 }, { start: 7, end: 9 }, '789'],
        ['an end past the file, cut', { start: 8, end: 1000 }, { start: 8, end: 9 }, '89'],
        ['the last n bytes', { suffixLength: 3 }, { start: 7, end: 9 }, '789'],
        ['a suffix longer than the file: all of it', { suffixLength: 50 }, { start: 0, end: 9 }, '0123456789'],
        ['one byte', { start: 0, end: 0 }, { start: 0, end: 0 }, '0'],
      ])('streams only a range: %s', async (_, requested, range, text) => {
        const stored = await fixture().store.put(LABEL, Buffer.from('0123456789'));
        const opened = await fixture().store.open(stored.path, requested);
        if (!opened) throw new Error('not opened');
        expect(opened.range).toEqual(range);
        expect(opened.sizeBytes).toBe(10);
        expect((await readAll(opened.stream)).toString()).toBe(text);
      });

      it.each([
        ['a start at the end', { start: 10 }],
        ['a start past the end', { start: 11, end: 20 }],
        ['an empty suffix', { suffixLength: 0 }],
        ['an end before the start', { start: 5, end: 4 }],
      ])('refuses an unsatisfiable range (%s) with the file size', async (_, requested) => {
        const stored = await fixture().store.put(LABEL, Buffer.from('0123456789'));
        const error = await fixture()
          .store.open(stored.path, requested)
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RangeNotSatisfiableError);
        expect((error as RangeNotSatisfiableError).sizeBytes).toBe(10);
      });

      it('answers null for a missing file even with a range', async () => {
        await expect(fixture().store.open(`${LABEL}-${'0'.repeat(24)}.bin`, { start: 0 })).resolves.toBeNull();
      });
    });

    describe('remove', () => {
      it('removes the file (open answers null) and leaves the others', async () => {
        const f = fixture();
        const gone = await f.store.put(LABEL, Buffer.from('gone'));
        const kept = await f.store.put(LABEL, Buffer.from('kept'));

        await f.store.remove(gone.path);

        await expect(f.store.open(gone.path)).resolves.toBeNull();
        expect((await contentOf(kept.path)).bytes.toString()).toBe('kept');
        expect(await f.names()).toEqual([kept.path]);
      });

      it('takes a file already gone as no error', async () => {
        const f = fixture();
        const stored = await f.store.put(LABEL, Buffer.from('x'));
        await f.store.remove(stored.path);

        await expect(f.store.remove(stored.path)).resolves.toBeUndefined();
        await expect(f.store.open(stored.path)).resolves.toBeNull();
      });
    });

    describe('list', () => {
      it('answers nothing for an empty store', async () => {
        await expect(fixture().store.list()).resolves.toEqual([]);
      });

      it('names every stored file with its write time, and no longer a removed one', async () => {
        const f = fixture();
        const before = Date.now();
        const first = await f.store.put(LABEL, Buffer.from('first'));
        const second = await f.store.put('p300_binary_v1-2.0', Buffer.from('second'));
        const gone = await f.store.put(LABEL, Buffer.from('gone'));
        await f.store.remove(gone.path);

        const listed = await f.store.list();
        expect(listed.map((entry) => entry.path).sort()).toEqual([first.path, second.path].sort());
        for (const entry of listed) {
          expect(entry.modifiedAt).toBeInstanceOf(Date);
          // file systems may round the time down to the second
          expect(entry.modifiedAt.getTime()).toBeGreaterThanOrEqual(before - 2000);
          expect(entry.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
        }
      });

      it('never names a file still being written', async () => {
        const f = fixture();
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        async function* slow(): AsyncIterable<Uint8Array> {
          yield Buffer.from('first half');
          await held;
          yield Buffer.from('second half');
        }
        const writing = f.store.put(LABEL, slow());
        await new Promise((resolve) => setTimeout(resolve, 50));

        await expect(f.store.list()).resolves.toEqual([]);

        release();
        const stored = await writing;
        expect((await f.store.list()).map((entry) => entry.path)).toEqual([stored.path]);
      });
    });
  });
}
