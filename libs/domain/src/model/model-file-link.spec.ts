import { modelFileLinkPayload, modelFileLinkQuery, modelFilePathOf, parseModelFileLinkQuery } from './model-file-link';

describe('model file links', () => {
  const signature = 'A'.repeat(43);

  it('signs the path as it appears in the URL, and the expiry', () => {
    expect(modelFilePathOf('m-1.0-0123456789abcdef01234567.bin')).toBe('/model-files/m-1.0-0123456789abcdef01234567.bin');
    expect(modelFilePathOf('a/b')).toBe('/model-files/a%2Fb');
    expect(modelFileLinkPayload('/model-files/x.bin', 1800000000)).toBe('GET\n/model-files/x.bin\n1800000000');
    expect(modelFileLinkQuery(1800000000, signature)).toBe(`expires=1800000000&signature=${signature}`);
  });

  it('reads a well-formed query', () => {
    expect(parseModelFileLinkQuery({ expires: '1800000000', signature })).toEqual({ expires: 1800000000, signature });
  });

  it.each([
    [undefined],
    [{}],
    [{ expires: '1800000000' }],
    [{ signature }],
    [{ expires: '', signature }],
    [{ expires: '-1', signature }],
    [{ expires: '01800000000', signature }],
    [{ expires: '1.5', signature }],
    [{ expires: '1'.repeat(13), signature }],
    [{ expires: ['1', '2'], signature }],
    [{ expires: '1800000000', signature: `${signature}=` }],
    [{ expires: '1800000000', signature: signature.slice(1) }],
    [{ expires: '1800000000', signature: `${signature.slice(1)}+` }],
  ])('refuses %j', (query) => {
    expect(parseModelFileLinkQuery(query)).toBeNull();
  });
});
