import { PinoNestLogger, type RequestLine, createServiceLogger, requestLineWriter } from './service-logger';

function capture(level: Parameters<typeof createServiceLogger>[0] = 'trace') {
  const records: Array<Record<string, unknown>> = [];
  const logger = createServiceLogger(level, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { records, nest: new PinoNestLogger(logger), logger };
}

describe(PinoNestLogger.name, () => {
  it('writes Nest lines as JSON with their context, and errors with their stack', () => {
    const { records, nest } = capture();
    nest.log('started', 'NestApplication');
    nest.error('failed', 'Error: boom\n    at x (y.js:1:1)', 'ErrorEnvelope');
    nest.warn({ msg: 'database unavailable', req_id: 'r-1' }, 'ErrorEnvelope');
    nest.verbose('detail');
    expect(records).toEqual([
      expect.objectContaining({ level: 'info', msg: 'started', context: 'NestApplication' }),
      expect.objectContaining({ level: 'error', msg: 'failed', context: 'ErrorEnvelope', stack: 'Error: boom\n    at x (y.js:1:1)' }),
      expect.objectContaining({ level: 'warn', msg: 'database unavailable', req_id: 'r-1', context: 'ErrorEnvelope' }),
      expect.objectContaining({ level: 'trace', msg: 'detail' }),
    ]);
    for (const record of records) expect(record).toEqual(expect.objectContaining({ time: expect.any(Number), service: 'svc-licensing' }));
  });

  it('respects the level', () => {
    const { records, nest } = capture('warn');
    nest.log('not written');
    nest.debug('not written');
    nest.warn('written');
    expect(records.map((r) => r.msg)).toEqual(['written']);
  });

  it('censors secret fields of any object it is handed', () => {
    const { records, logger } = capture();
    logger.info(
      { api_key: 'svc_live_x', github_token: 'ghp_x', token: 't', authorization: 'Bearer x', headers: { authorization: 'Bearer y' } },
      'oops',
    );
    expect(records[0]).toEqual(
      expect.objectContaining({
        api_key: '[REDACTED]',
        github_token: '[REDACTED]',
        token: '[REDACTED]',
        authorization: '[REDACTED]',
        headers: { authorization: '[REDACTED]' },
      }),
    );
  });
});

describe(requestLineWriter.name, () => {
  const line: RequestLine = {
    req_id: 'req "1"\\',
    method: 'POST',
    url: '/v1/models/x?api_key=[REDACTED]&q=\u00e9\n',
    route: '/v1/models/:name',
    status: 201,
    duration_ms: 3.21,
    ip: '::ffff:127.0.0.1',
  };

  it.each(['info', 'error'] as const)('writes the %s line with the base fields, event "request", the line\'s fields and msg', (level) => {
    const { records, logger } = capture();
    requestLineWriter(logger)(level, line);
    expect(records).toEqual([
      {
        level,
        time: expect.any(Number),
        service: 'svc-licensing',
        pid: process.pid,
        hostname: expect.any(String),
        event: 'request',
        ...line,
        msg: level === 'error' ? 'request failed' : 'request',
      },
    ]);
  });
});
