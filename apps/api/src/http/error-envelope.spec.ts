import { REASON_PHRASE, errorEnvelope } from './error-envelope';

describe(errorEnvelope.name, () => {
  it('is `{ error, code, message }` in that order, and leaves `message` out when there is none', () => {
    expect(JSON.stringify(errorEnvelope(REASON_PHRASE[404], 'NOT_FOUND', 'No such endpoint'))).toBe(
      '{"error":"Not found","code":"NOT_FOUND","message":"No such endpoint"}',
    );
    expect(JSON.stringify(errorEnvelope(REASON_PHRASE[500], 'SERVER_ERROR'))).toBe(
      '{"error":"Internal server error","code":"SERVER_ERROR"}',
    );
    expect(Object.keys(errorEnvelope('x', 'SERVER_ERROR', undefined))).toEqual(['error', 'code']);
  });
});
