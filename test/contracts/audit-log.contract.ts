import { AuditLog } from '@svc/domain';
import { T0, makeAuditEntry, uniqueId } from '../factories/domain.factory';
import { type MakePersistence, useFixture } from './persistence-fixture';
import { expectRefused } from './refused';

const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** The behaviour every AuditLog adapter must share: entries kept whole, newest first (ties as appended), filtered by key. */
export function describeAuditLogContract(make: MakePersistence): void {
  describe(`${AuditLog.name} contract`, () => {
    const fixture = useFixture(make);

    it('answers an empty list when nothing was logged', async () => {
      await expect(fixture().audit.list({ limit: 10 })).resolves.toEqual([]);
    });

    it('keeps every field of an entry, details included', async () => {
      const f = fixture();
      const entry = makeAuditEntry({
        at: new Date('2026-03-15T12:34:56.789Z'),
        action: 'key.revoked',
        reason: 'Leaked in a notebook — "oops" 🙈',
        details: { by: 'holder', nested: { list: [1, 'two', null], flag: true } },
      });
      await f.audit.append(entry);

      await expect(f.audit.list({ limit: 10 })).resolves.toEqual([entry]);
    });

    it('keeps entries without a key, reason or details', async () => {
      const f = fixture();
      const entry = makeAuditEntry({ keyId: null, reason: null, details: null, action: 'installer.token_issued' });
      await f.audit.append(entry);

      await expect(f.audit.list({ limit: 10 })).resolves.toEqual([entry]);
    });

    it('lists newest first, whatever the order of appending', async () => {
      const f = fixture();
      const times = [5, 1, 9, 3, 7];
      for (const s of times) await f.audit.append(makeAuditEntry({ at: at(s), reason: `at ${s}` }));

      const listed = await f.audit.list({ limit: 10 });

      expect(listed.map((e) => e.reason)).toEqual(['at 9', 'at 7', 'at 5', 'at 3', 'at 1']);
    });

    it('orders by time, not by the text of the time (milliseconds and day boundaries)', async () => {
      const f = fixture();
      const instants = [
        new Date('2026-03-15T23:59:59.999Z'),
        new Date('2026-03-16T00:00:00.000Z'),
        new Date('2026-03-15T23:59:59.998Z'),
        new Date('2025-12-31T23:59:59.999Z'),
      ];
      for (const when of instants) await f.audit.append(makeAuditEntry({ at: when }));

      const listed = await f.audit.list({ limit: 10 });

      expect(listed.map((e) => e.at.toISOString())).toEqual([
        '2026-03-16T00:00:00.000Z',
        '2026-03-15T23:59:59.999Z',
        '2026-03-15T23:59:59.998Z',
        '2025-12-31T23:59:59.999Z',
      ]);
    });

    it('filters by key, newest first, leaving other keys and key-less entries out', async () => {
      const f = fixture();
      const mine = uniqueId('key');
      const other = uniqueId('key');
      await f.audit.append(makeAuditEntry({ keyId: mine, at: at(1), action: 'key.issued' }));
      await f.audit.append(makeAuditEntry({ keyId: other, at: at(2), action: 'key.issued' }));
      await f.audit.append(makeAuditEntry({ keyId: null, at: at(3), action: 'installer.token_issued' }));
      await f.audit.append(makeAuditEntry({ keyId: mine, at: at(4), action: 'key.updated' }));
      await f.audit.append(makeAuditEntry({ keyId: mine, at: at(5), action: 'key.revoked' }));

      const listed = await f.audit.list({ keyId: mine, limit: 10 });

      expect(listed.map((e) => [e.keyId, e.action])).toEqual([
        [mine, 'key.revoked'],
        [mine, 'key.updated'],
        [mine, 'key.issued'],
      ]);
      expect(await f.audit.list({ limit: 10 })).toHaveLength(5);
      await expect(f.audit.list({ keyId: uniqueId('key'), limit: 10 })).resolves.toEqual([]);
    });

    it('answers at most `limit` entries, the newest ones', async () => {
      const f = fixture();
      for (let s = 1; s <= 6; s += 1) await f.audit.append(makeAuditEntry({ at: at(s), reason: `at ${s}` }));

      const listed = await f.audit.list({ limit: 2 });

      expect(listed.map((e) => e.reason)).toEqual(['at 6', 'at 5']);
    });

    it('refuses a second entry with the same id', async () => {
      const f = fixture();
      const entry = makeAuditEntry();
      await f.audit.append(entry);
      await expectRefused(f.audit.append({ ...entry, reason: 'again' }));
      expect((await f.audit.list({ limit: 10 })).map((e) => e.reason)).toEqual([null]);
    });

    it('filters by action, and by key and action together', async () => {
      const f = fixture();
      const key = uniqueId('key');
      await f.audit.append(makeAuditEntry({ at: at(1), keyId: key, action: 'key.issued', reason: 'a' }));
      await f.audit.append(makeAuditEntry({ at: at(2), keyId: key, action: 'key.revoked', reason: 'b' }));
      await f.audit.append(makeAuditEntry({ at: at(3), action: 'key.revoked', reason: 'c' }));
      await f.audit.append(makeAuditEntry({ at: at(4), keyId: null, action: 'model.created', reason: 'd' }));

      expect((await f.audit.list({ action: 'key.revoked', limit: 10 })).map((e) => e.reason)).toEqual(['c', 'b']);
      expect((await f.audit.list({ keyId: key, action: 'key.issued', limit: 10 })).map((e) => e.reason)).toEqual(['a']);
    });

    it('pages after a position: ties in time in the reverse of appending, and entries added meanwhile never shift later pages', async () => {
      const f = fixture();
      const ids = ['aud_e', 'aud_a', 'aud_d', 'aud_b', 'aud_c']; // appended in this order, all in one millisecond
      for (const id of ids) await f.audit.append(makeAuditEntry({ id, at: at(5) }));
      await f.audit.append(makeAuditEntry({ id: 'aud_z', at: at(1) }));

      const first = await f.audit.list({ limit: 2 });
      expect(first.map((e) => e.id)).toEqual(['aud_c', 'aud_b']);
      await f.audit.append(makeAuditEntry({ id: 'aud_new', at: at(9) }));
      await f.audit.append(makeAuditEntry({ id: 'aud_0', at: at(5) })); // newer than the first page's end: never on a later page
      const last = first[first.length - 1];
      const second = await f.audit.list({ limit: 2, after: { at: last.at, id: last.id } });
      expect(second.map((e) => e.id)).toEqual(['aud_d', 'aud_a']);
      const third = await f.audit.list({ limit: 10, after: { at: second[1].at, id: second[1].id } });
      expect(third.map((e) => e.id)).toEqual(['aud_e', 'aud_z']);
      expect((await f.audit.list({ limit: 3 })).map((e) => e.id)).toEqual(['aud_new', 'aud_0', 'aud_c']);
    });

    it('lists many entries of one millisecond newest first, as appended, whatever their ids; pages and filters keep that order', async () => {
      const f = fixture();
      const key = uniqueId('key');
      // ids that sort the other way round from their appending (a list by id would come out oldest first)
      const appended = Array.from({ length: 40 }, (_, i) => `aud_${String(999 - i).padStart(4, '0')}`);
      for (const [i, id] of appended.entries()) {
        await f.audit.append(makeAuditEntry({ id, at: T0, keyId: key, action: i % 2 === 0 ? 'key.revoked' : 'key.rotated' }));
      }
      const newestFirst = [...appended].reverse();

      expect((await f.audit.list({ limit: 100 })).map((e) => e.id)).toEqual(newestFirst);
      const paged: string[] = [];
      for (let page = await f.audit.list({ limit: 7 }); page.length > 0;) {
        paged.push(...page.map((e) => e.id));
        const end = page[page.length - 1];
        page = await f.audit.list({ limit: 7, after: { at: end.at, id: end.id } });
      }
      expect(paged).toEqual(newestFirst);
      expect((await f.audit.list({ keyId: key, action: 'key.revoked', limit: 100 })).map((e) => e.id)).toEqual(
        newestFirst.filter((id) => appended.indexOf(id) % 2 === 0),
      );
      const end = newestFirst[9];
      expect((await f.audit.list({ keyId: key, limit: 5, after: { at: T0, id: end } })).map((e) => e.id)).toEqual(
        newestFirst.slice(10, 15),
      );
    });

    it('continues after a position whose id names no entry with the entries older than its time', async () => {
      const f = fixture();
      for (const [id, s] of [
        ['aud_b', 5],
        ['aud_a', 5],
        ['aud_c', 4],
      ] as const) {
        await f.audit.append(makeAuditEntry({ id, at: at(s) }));
      }
      const page = await f.audit.list({ limit: 10, after: { at: at(5), id: 'aud_gone' } });
      expect(page.map((e) => e.id)).toEqual(['aud_c']);
    });

    it('pages after a position across milliseconds', async () => {
      const f = fixture();
      const base = new Date('2026-03-15T23:59:59.998Z').getTime();
      for (let i = 0; i < 4; i++) await f.audit.append(makeAuditEntry({ id: `aud_${i}`, at: new Date(base + i) }));
      const page = await f.audit.list({ limit: 10, after: { at: new Date(base + 2), id: 'aud_2' } });
      expect(page.map((e) => e.id)).toEqual(['aud_1', 'aud_0']);
    });
  });
}
