import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { TEST_ADMIN_TOKEN } from './create-test-app';

const MB = 1024 * 1024;

/** A complete model record body for `POST /admin/v1/models` (a free motor-imagery model). */
export function modelRecordBody(name: string, description = 'A test model'): Record<string, unknown> {
  return {
    name,
    version: '1.0.0',
    type: 'SvcLDA',
    paradigm: 'motor_imagery',
    n_features: 8,
    n_classes: 2,
    requires_license: 'free',
    metadata: { description, training_subjects: 3, accuracy: '0.70-0.80', feature_type: 'csp', recommended_use: 'Tests' },
  };
}

/** A process's resident memory (/proc/<pid>/status VmRSS), in bytes. */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error('no VmRSS');
  return Number(match[1]) * 1024;
}

/** Samples the process's resident memory every 20 ms until stopped; the largest seen. */
export function sampleResident(pid: number): { stop(): number } {
  let peak = residentBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, residentBytes(pid));
    },
  };
}

/**
 * PUTs `size` bytes to an admin upload URL, chunked, 1 MiB at a time with
 * back-pressure (the test never holds the file; every MiB differs); with
 * `cutAfter`, the connection is destroyed once that many bytes are sent
 * (status 0). The SHA-256 of what was sent.
 */
export function streamUpload(url: string, size: number, cutAfter?: number): Promise<{ status: number; text: string; sha256: string }> {
  const block = randomBytes(MB);
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(url, {
      method: 'PUT',
      agent: false,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/octet-stream' },
    });
    req.on('error', (error) => (cutAfter === undefined ? reject(error) : resolve({ status: 0, text: '', sha256: '' })));
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, sha256: hash.digest('hex') }));
    });
    let sent = 0;
    const write = (): void => {
      while (sent < size) {
        if (cutAfter !== undefined && sent >= cutAfter) {
          req.destroy();
          return;
        }
        block.writeUInt32BE(sent / MB, 0);
        const chunk = Buffer.from(block.subarray(0, Math.min(MB, size - sent)));
        hash.update(chunk);
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}
