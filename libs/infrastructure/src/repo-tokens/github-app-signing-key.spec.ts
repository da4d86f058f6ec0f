import 'reflect-metadata';
import { type KeyObject, generateKeyPairSync } from 'node:crypto';
import { ConfigError } from '@svc/config';
import { githubAppSigningKeyOf } from './github-app-signing-key';

const pkcs8 = ({ privateKey }: { privateKey: KeyObject }) => privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const rsaPem = (bits: number) => pkcs8(generateKeyPairSync('rsa', { modulusLength: bits }));
const ecPem = () => pkcs8(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }));

describe('githubAppSigningKeyOf (GITHUB_APP_PRIVATE_KEY, parsed at start-up)', () => {
  const rsa = rsaPem(2048);

  it('reads an RSA key of 2048 bits, also when its newlines arrived as literal \\n', () => {
    expect(githubAppSigningKeyOf(rsa).asymmetricKeyType).toBe('rsa');
    expect(githubAppSigningKeyOf(rsa.trim().replace(/\n/g, '\\n')).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it.each([
    ['text that is no PEM', 'not a key', 'GITHUB_APP_PRIVATE_KEY is not a readable PEM private key'],
    ['an EC key', ecPem(), 'GITHUB_APP_PRIVATE_KEY must be an RSA private key'],
    ['an RSA key of 1024 bits', rsaPem(1024), 'GITHUB_APP_PRIVATE_KEY must be an RSA key of at least 2048 bits'],
  ])('refuses %s with a ConfigError naming the setting', (_what, pem, problem) => {
    expect(() => githubAppSigningKeyOf(pem)).toThrow(ConfigError);
    expect(() => githubAppSigningKeyOf(pem)).toThrow(problem);
  });
});
