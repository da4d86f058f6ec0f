import { ApiKey, type KeyEnvironment, type LicenseType, type MonthlyLimitSetting } from '@svc/domain';
import { ApiKeyRecord } from '../records/api-key.record';

export class ApiKeyMapper {
  static toDomain(record: ApiKeyRecord): ApiKey {
    const limit = record.monthlyLimit === null ? null : Number(record.monthlyLimit);
    const monthlyLimit: MonthlyLimitSetting = record.monthlyLimitSource === 'override' ? { source: 'override', limit } : { source: 'tier' };
    return new ApiKey({
      id: record.id,
      userId: record.userId,
      digest: record.digest,
      displayPrefix: record.displayPrefix,
      environment: record.environment as KeyEnvironment,
      licenseType: record.licenseType as LicenseType,
      expiresAt: record.expiresAt,
      revokedAt: record.revokedAt,
      monthlyLimit,
      createdAt: record.createdAt,
      licenseId: record.licenseId,
      rotatedFrom: record.rotatedFrom ?? null,
      rotatedTo: record.rotatedTo ?? null,
    });
  }

  static toRecord(key: ApiKey): ApiKeyRecord {
    const p = key.props;
    const record = new ApiKeyRecord();
    record.id = p.id;
    record.userId = p.userId;
    record.digest = p.digest;
    record.displayPrefix = p.displayPrefix;
    record.environment = p.environment;
    record.licenseType = p.licenseType;
    record.expiresAt = p.expiresAt;
    record.revokedAt = p.revokedAt;
    Object.assign(record, ApiKeyMapper.limitColumns(p.monthlyLimit));
    record.createdAt = p.createdAt;
    record.licenseId = p.licenseId;
    record.rotatedFrom = p.rotatedFrom;
    record.rotatedTo = p.rotatedTo;
    return record;
  }

  static limitColumns(setting: MonthlyLimitSetting): Pick<ApiKeyRecord, 'monthlyLimitSource' | 'monthlyLimit'> {
    return setting.source === 'override'
      ? { monthlyLimitSource: 'override', monthlyLimit: setting.limit }
      : { monthlyLimitSource: 'tier', monthlyLimit: null };
  }
}
