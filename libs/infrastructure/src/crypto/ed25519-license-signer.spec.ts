import { createPrivateKey, createPublicKey } from 'node:crypto';
import { type OfflineLicense } from '@svc/domain';
import fc from 'fast-check';
import { SignJWT, jwtVerify } from 'jose';
import { claimsOf, kidOf, newLicenseKeyPair, signedToken } from './ed25519-license-signer';

const licenses: fc.Arbitrary<OfflineLicense> = fc.record({
  keyId: fc.stringMatching(/^key_[0-9a-f]{24}$/),
  userId: fc.stringMatching(/^usr_[0-9a-f]{24}$/),
  licenseType: fc.constantFrom('free', 'research', 'commercial', 'enterprise'),
  features: fc.array(fc.string(), { maxLength: 5 }),
  monthlyLimit: fc.option(fc.nat(), { nil: null }),
  resetsAt: fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
  keyExpiresAt: fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
  environment: fc.constantFrom('live', 'test'),
  issuedAt: fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2099-01-01T00:00:00Z'), noInvalidDate: true }),
  expiresAt: fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
});

describe('signedToken', () => {
  it("is exactly the token jose's SignJWT makes for the same header and claims, and jose verifies it", async () => {
    const pem = newLicenseKeyPair().privateKey;
    const privateKey = createPrivateKey(pem);
    const publicKey = createPublicKey(privateKey);
    const kid = await kidOf(pem);
    await fc.assert(
      fc.asyncProperty(licenses, async (license) => {
        const token = await signedToken(license, privateKey, kid);
        const byJose = await new SignJWT(claimsOf(license)).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid }).sign(privateKey);
        expect(token).toBe(byJose);
        const { payload, protectedHeader } = await jwtVerify(token, publicKey, { currentDate: license.issuedAt, clockTolerance: 1e10 });
        expect(protectedHeader).toEqual({ alg: 'EdDSA', typ: 'JWT', kid });
        expect(payload).toEqual(claimsOf(license));
      }),
      { numRuns: 200 },
    );
  });

  it('is refused by jose under another key', async () => {
    const license = fc.sample(licenses, 1)[0];
    const token = await signedToken(license, createPrivateKey(newLicenseKeyPair().privateKey), 'kid');
    const other = createPublicKey(createPrivateKey(newLicenseKeyPair().privateKey));
    await expect(jwtVerify(token, other, { currentDate: license.issuedAt, clockTolerance: 1e10 })).rejects.toThrow(/signature/);
  });
});
