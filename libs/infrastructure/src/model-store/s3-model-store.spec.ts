import { randomBytes } from 'node:crypto';
import { CreateMultipartUploadCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ModelStoreUnavailableError } from '@svc/domain';
import { S3RVER_CREDENTIALS, S3TestServer } from '../../../../test/harness/s3-server';
import { describeModelStoreContract } from '../../../../test/contracts/model-store.contract';
import { S3ModelStore } from './s3-model-store';

describe(`${S3ModelStore.name} on s3rver`, () => {
  let server: S3TestServer | undefined;
  beforeAll(async () => {
    server = await S3TestServer.start();
  });
  afterAll(async () => {
    await server?.dispose();
  });
  let next = 0;

  // A prefix of its own per test, in the one bucket; `names` are every key under it, unfinished uploads included.
  describeModelStoreContract(async () => {
    if (!server) throw new Error('the server runs only while the tests run');
    const s3 = server;
    next += 1;
    const prefix = `store-${next}/`;
    const store = new S3ModelStore({ bucket: s3.bucket, prefix, endpoint: s3.endpoint, forcePathStyle: true }, clientOf(s3));
    const under = (keys: string[]) => keys.filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
    return {
      store,
      names: async () => [...under(await s3.objectKeys()), ...under(await s3.unfinishedUploadKeys())],
      dispose: async () => undefined,
    };
  });
});

function clientOf(server: S3TestServer) {
  return S3ModelStore.clientFor(
    { bucket: server.bucket, prefix: '', endpoint: server.endpoint, forcePathStyle: true },
    { region: 'us-east-1', credentials: S3RVER_CREDENTIALS },
  );
}

describe(`${S3ModelStore.name}: what only an object store does`, () => {
  let server: S3TestServer;
  let store: S3ModelStore;
  beforeAll(async () => {
    server = await S3TestServer.start();
    store = new S3ModelStore({ bucket: server.bucket, prefix: 'm/', endpoint: server.endpoint, forcePathStyle: true }, clientOf(server));
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('links a stored file by a presigned GET that downloads it, whole or by range, until it expires', async () => {
    const bytes = randomBytes(300_000);
    const stored = await store.put('m-1.0', bytes);

    const link = await store.linkTo(stored.path, { signedAt: new Date(), validForSeconds: 60, serviceOrigin: 'http://ignored' });
    expect(link.startsWith(`${server.endpoint}/${server.bucket}/m/${stored.path}?`)).toBe(true);
    // signed at the minute's start, valid the asked 60 s plus that minute: at least 60 s from now
    expect(new URL(link).searchParams.get('X-Amz-Expires')).toBe('120');
    expect(await store.linkTo(stored.path, { signedAt: new Date(), validForSeconds: 60, serviceOrigin: '' })).toBe(link);
    const whole = await fetch(link);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(link, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);

    // later links are signed by the presigner directly, on the address the first one had: they work the same
    const again = await store.linkTo(stored.path, { signedAt: new Date(), validForSeconds: 120, serviceOrigin: '' });
    expect(again.startsWith(`${server.endpoint}/${server.bucket}/m/${stored.path}?`)).toBe(true);
    expect(new URL(again).searchParams.get('X-Amz-Expires')).toBe('180');
    expect(Buffer.from(await (await fetch(again)).arrayBuffer()).equals(bytes)).toBe(true);
    // s3rver checks a link's expiry, not its signature: the signature is checked against the SDK's own presigning
    const signedAt = new Date('2026-06-01T12:00:00Z');
    const direct = new URL(await store.linkTo(stored.path, { signedAt, validForSeconds: 300, serviceOrigin: '' }));
    const sdk = new URL(
      await getSignedUrl(clientOf(server), new GetObjectCommand({ Bucket: server.bucket, Key: `m/${stored.path}` }), {
        expiresIn: 360,
        signingDate: signedAt,
      }),
    );
    expect(`${direct.origin}${direct.pathname}`).toBe(`${sdk.origin}${sdk.pathname}`);
    expect(Object.fromEntries(direct.searchParams)).toEqual(Object.fromEntries(sdk.searchParams));

    const expired = await store.linkTo(stored.path, { signedAt: new Date(Date.now() - 120_000), validForSeconds: 60, serviceOrigin: '' });
    expect((await fetch(expired)).status).toBe(403);
  });

  it('aborts the multipart uploads begun more than a day ago and never finished, and only those', async () => {
    const client = clientOf(server);
    const begin = (name: string) => client.send(new CreateMultipartUploadCommand({ Bucket: server.bucket, Key: `m/${name}` }));
    const stale = `m-1.0-${'a'.repeat(24)}.bin`;
    await begin(stale);
    await server.backdateUnfinishedUploads(new Date(Date.now() - 25 * 3600_000));
    const fresh = `m-1.0-${'b'.repeat(24)}.bin`;
    await begin(fresh);

    await expect(store.discardUnfinishedUploads(new Date(Date.now() - 24 * 3600_000))).resolves.toEqual([stale]);

    expect(await server.unfinishedUploadKeys()).toEqual([`m/${fresh}`]);
  });

  it('answers while the server runs, not while it is stopped, and again once it is back; calls then throw ModelStoreUnavailableError', async () => {
    const stored = await store.put('m-1.0', Buffer.from('kept across the outage'));
    await expect(store.answers()).resolves.toBe(true);

    await server.stop();
    try {
      await expect(store.answers()).resolves.toBe(false);
      await expect(store.put('m-1.0', Buffer.from('x'))).rejects.toBeInstanceOf(ModelStoreUnavailableError);
      await expect(store.open(stored.path)).rejects.toBeInstanceOf(ModelStoreUnavailableError);
      await expect(store.list()).rejects.toBeInstanceOf(ModelStoreUnavailableError);
      // a link is made without the store: listings keep working
      await expect(store.linkTo(stored.path, { signedAt: new Date(), validForSeconds: 60, serviceOrigin: '' })).resolves.toContain(
        stored.path,
      );
    } finally {
      await server.resume();
    }

    await expect(store.answers()).resolves.toBe(true);
    const opened = await store.open(stored.path);
    expect(opened?.sizeBytes).toBe(22);
  });
});
