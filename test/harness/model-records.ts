/** The body of `POST /admin/v1/models` for a small free model named `name` (its file uploaded afterwards). */
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
