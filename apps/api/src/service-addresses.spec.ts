import 'reflect-metadata';
import { loadConfig } from '@svc/config';
import { serviceAddresses } from './service-addresses';

describe('serviceAddresses: the start-up line of npm start', () => {
  const token = 'a-long-enough-admin-token-0123456789';

  it('names the API, the OpenAPI page and the console at localhost when the service listens on every address', () => {
    expect(serviceAddresses(loadConfig({ ADMIN_TOKEN: token }))).toBe(
      'svc-licensing listening on http://localhost:3000 (sqlite): API under http://localhost:3000/v1/, ' +
        "OpenAPI page http://localhost:3000/api/docs, console http://localhost:3000/console (sign in with ADMIN_TOKEN or an operator's token)",
    );
  });

  it('without ADMIN_TOKEN says that an operator brings the console up', () => {
    expect(serviceAddresses(loadConfig({ HOST: '127.0.0.1', PORT: '3100' }))).toBe(
      'svc-licensing listening on http://127.0.0.1:3100 (sqlite): API under http://127.0.0.1:3100/v1/, ' +
        'OpenAPI page http://127.0.0.1:3100/api/docs, console http://127.0.0.1:3100/console once an operator exists (npm run cli -- operators create --name N --role owner; or set ADMIN_TOKEN)',
    );
  });

  it('with the console turned off says so, and brackets an IPv6 host', () => {
    const line = serviceAddresses(loadConfig({ HOST: '::1', ADMIN_TOKEN: token, CONSOLE_ENABLED: 'false' }));
    expect(line).toContain('listening on http://[::1]:3000 ');
    expect(line).toMatch(/console off \(CONSOLE_ENABLED=false\)$/);
  });
});
