import { type LicenseType, type Model, type ModelMetadata, type ModelType } from '@svc/domain';
import { ModelRecord } from '../records/model.record';

export class ModelMapper {
  static toDomain(record: ModelRecord): Model {
    return {
      name: record.name,
      version: record.version,
      type: record.type as ModelType,
      paradigm: record.paradigm,
      nFeatures: Number(record.nFeatures),
      nClasses: Number(record.nClasses),
      downloadUrl: record.downloadUrl,
      requiresLicense: record.requiresLicense as LicenseType,
      ownerUserId: record.ownerUserId,
      metadata: JSON.parse(record.metadata) as ModelMetadata,
      storedFile: record.storedFile,
      checksum: record.checksum,
      sizeBytes: record.sizeBytes === null ? null : Number(record.sizeBytes),
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  static toRecord(model: Model): ModelRecord {
    const record = Object.assign(new ModelRecord(), ModelMapper.descriptionColumns(model));
    record.name = model.name;
    record.storedFile = model.storedFile;
    record.checksum = model.checksum;
    record.sizeBytes = model.sizeBytes;
    record.createdAt = model.createdAt;
    return record;
  }

  /** What the operator describes, and `updated_at`: the columns a replacement writes. */
  static descriptionColumns(model: Model): Omit<ModelRecord, 'name' | 'storedFile' | 'checksum' | 'sizeBytes' | 'createdAt'> {
    return {
      version: model.version,
      type: model.type,
      paradigm: model.paradigm,
      nFeatures: model.nFeatures,
      nClasses: model.nClasses,
      downloadUrl: model.downloadUrl,
      requiresLicense: model.requiresLicense,
      ownerUserId: model.ownerUserId,
      metadata: JSON.stringify(model.metadata),
      updatedAt: model.updatedAt,
    };
  }

  /** The description, `updated_at`, and the file columns of a record whose file the service does not hold. */
  static unstoredColumns(model: Model): Omit<ModelRecord, 'name' | 'createdAt'> {
    return { ...ModelMapper.descriptionColumns(model), storedFile: null, checksum: model.checksum, sizeBytes: model.sizeBytes };
  }
}
