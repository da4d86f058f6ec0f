import { LICENSE_TYPES, type LicenseType, isLicenseType } from './license-type';

/** What one tier grants: its features and its monthly limit (`null`: unlimited). */
export interface TierTerms {
  readonly features: readonly string[];
  readonly monthlyLimit: number | null;
}

/** The shape of `config/tiers.json`: each tier lists the features it adds to the tier below. */
export interface TierCatalogSource {
  readonly [tier: string]: { readonly adds: readonly string[]; readonly monthly_limit: number | null };
}

/** A list of feature names, each a non-empty string (the source is JSON, so its declared type is checked). */
function isFeatureList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((feature) => typeof feature === 'string' && feature !== '');
}

/**
 * The feature matrix and monthly limits of the four tiers (CONTRACT 4). The
 * matrix lives in configuration; this class only checks it and answers from it.
 */
export class TierCatalog {
  private constructor(private readonly terms: ReadonlyMap<LicenseType, TierTerms>) {}

  /** Builds the catalogue; throws with a plain sentence when the source is not a full matrix. */
  static fromSource(source: TierCatalogSource): TierCatalog {
    for (const name of Object.keys(source)) {
      if (!isLicenseType(name)) throw new Error(`unknown tier "${name}"`);
    }
    const terms = new Map<LicenseType, TierTerms>();
    let inherited: string[] = [];
    for (const tier of LICENSE_TYPES) {
      const entry = source[tier];
      if (!entry) throw new Error(`tier "${tier}" is missing`);
      if (!isFeatureList(entry.adds)) {
        throw new Error(`tier "${tier}": "adds" must be a list of feature names`);
      }
      const limit = entry.monthly_limit;
      if (limit !== null && !(Number.isSafeInteger(limit) && limit >= 0)) {
        throw new Error(`tier "${tier}": "monthly_limit" must be an integer >= 0 or null`);
      }
      inherited = [...inherited, ...entry.adds.filter((f) => !inherited.includes(f))];
      terms.set(tier, { features: Object.freeze([...inherited]), monthlyLimit: limit });
    }
    return new TierCatalog(terms);
  }

  termsOf(tier: LicenseType): TierTerms {
    return this.terms.get(tier)!;
  }

  featuresOf(tier: LicenseType): readonly string[] {
    return this.termsOf(tier).features;
  }

  monthlyLimitOf(tier: LicenseType): number | null {
    return this.termsOf(tier).monthlyLimit;
  }
}
