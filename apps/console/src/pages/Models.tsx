import { useState } from 'preact/hooks';
import { MODEL_TYPES, ok, type Schema, TIERS } from '../api';
import { useAction } from '../action';
import { ActionButton } from '../components/ActionButton';
import { LoadState } from '../components/LoadState';
import { useAllowance, useApi } from '../session';
import { useConfirm } from '../components/Confirm';
import { ErrorNote } from '../components/ErrorNote';
import { Time } from '../components/Time';
import { formatBytes, formatCount, formatPercent } from '../format';
import { useLoad } from '../load';

type AdminModel = Schema<'AdminModelResponse'>;
type ModelRecord = Schema<'ModelRecordRequest'>;

/** The catalogue: every record, published or not; register (file upload or external URL), edit, delete. */
export function Models() {
  const api = useApi();
  const models = useLoad((signal) => ok(api.client.GET('/admin/v1/models', { signal })), []);
  const [editing, setEditing] = useState<AdminModel | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { dialog, ask } = useConfirm();
  const [deleting, setDeleting] = useState<string | null>(null);
  const mayWrite = useAllowance('models.write', 'models-refused');

  const remove = useAction(
    async (model: AdminModel) => {
      setNotice(null);
      setDeleting(model.name);
      try {
        await ok(api.client.DELETE('/admin/v1/models/{name}', { params: { path: { name: model.name } } }));
      } finally {
        setDeleting(null);
      }
      models.reload();
      return `${model.name} deleted.`;
    },
    (model) =>
      ask(
        'Delete the model',
        `Delete ${model.name} ${model.version}? Keys no longer see it; an uploaded file is removed from the store.`,
        'Delete',
        true,
      ),
  );

  return (
    <>
      <div class="title-row">
        <h1>Models</h1>
        {editing === null && (
          <button
            type="button"
            class="primary"
            disabled={mayWrite.off}
            aria-describedby={mayWrite.describedBy}
            onClick={() => setEditing('new')}
          >
            Add a model
          </button>
        )}
      </div>
      {mayWrite.note}
      {editing !== null && (
        <ModelForm
          key={editing === 'new' ? 'new' : editing.name}
          model={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={(model) => {
            setEditing(null);
            remove.clear();
            setNotice(`${model.name} saved${model.published ? '' : ' (not yet published: no file or URL)'}.`);
            models.reload();
          }}
        />
      )}
      {(notice ?? remove.done) && <p role="status">{notice ?? remove.done}</p>}
      <ErrorNote error={remove.error} />
      <LoadState load={models} what="models">
        {(data) => (
          <section class="card">
            <p class="muted">{formatCount(data.total)} models</p>
            <div class="table-wrap">
              <table class="models">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Version</th>
                    <th scope="col">Type</th>
                    <th scope="col">Paradigm</th>
                    <th scope="col">Tier</th>
                    <th scope="col">File</th>
                    <th scope="col">Description</th>
                    <th scope="col">Updated</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.models.map((model) => (
                    <tr key={model.name} data-model={model.name}>
                      <td>
                        <code>{model.name}</code>
                        {model.owner_user_id && <div class="muted">custom: {model.owner_user_id}</div>}
                      </td>
                      <td>{model.version}</td>
                      <td>{model.type}</td>
                      <td>{model.paradigm}</td>
                      <td>{model.requires_license}</td>
                      <td>
                        {model.published ? (
                          model.stored_file ? (
                            'uploaded'
                          ) : (
                            'external URL'
                          )
                        ) : (
                          <span class="badge status-expired">no file</span>
                        )}
                        <div class="muted">
                          {formatBytes(model.size_bytes ?? (model.size_mb === null ? null : Math.round(model.size_mb * 1e6)))}
                        </div>
                      </td>
                      <td class="description">{model.metadata?.description}</td>
                      <td>
                        <Time iso={model.updated_at} />
                      </td>
                      <td class="row-actions">
                        <button
                          type="button"
                          disabled={mayWrite.off}
                          aria-describedby={mayWrite.describedBy}
                          onClick={() => setEditing(model)}
                          aria-label={`Edit ${model.name}`}
                        >
                          Edit
                        </button>
                        <ActionButton
                          class="danger"
                          busy={deleting === model.name}
                          busyText="Deleting…"
                          disabled={remove.busy || mayWrite.off}
                          describedBy={mayWrite.describedBy}
                          onClick={() => void remove.run(model)}
                          label={`Delete ${model.name}`}
                        >
                          Delete
                        </ActionButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        )}
      </LoadState>
      {dialog}
    </>
  );
}

interface Draft {
  name: string;
  version: string;
  type: string;
  paradigm: string;
  n_features: string;
  n_classes: string;
  requires_license: string;
  owner_user_id: string;
  description: string;
  training_subjects: string;
  accuracy: string;
  feature_type: string;
  recommended_use: string;
  source: 'upload' | 'url' | 'keep';
  download_url: string;
  checksum: string;
  size_bytes: string;
}

function draftOf(model: AdminModel | null): Draft {
  return {
    name: model?.name ?? '',
    version: model?.version ?? '1.0.0',
    type: model?.type ?? 'SvcLDA',
    paradigm: model?.paradigm ?? '',
    n_features: String(model?.n_features ?? ''),
    n_classes: String(model?.n_classes ?? ''),
    requires_license: model?.requires_license ?? 'free',
    owner_user_id: model?.owner_user_id ?? '',
    description: model?.metadata.description ?? '',
    training_subjects: String(model?.metadata.training_subjects ?? '0'),
    accuracy: model?.metadata.accuracy ?? '',
    feature_type: model?.metadata.feature_type ?? '',
    recommended_use: model?.metadata.recommended_use ?? '',
    source: model === null ? 'upload' : model.stored_file || !model.download_url ? 'keep' : 'url',
    download_url: model && !model.stored_file ? (model.download_url ?? '') : '',
    checksum: model && !model.stored_file ? (model.checksum ?? '') : '',
    size_bytes: model && !model.stored_file && model.size_bytes ? String(model.size_bytes) : '',
  };
}

/** POST (new) or PUT (edit) the record, then, for a file, PUT its bytes with upload progress. */
function ModelForm(props: { model: AdminModel | null; onCancel: () => void; onSaved: (model: AdminModel) => void }) {
  const editing = props.model !== null;
  const [draft, setDraft] = useState<Draft>(draftOf(props.model));
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const api = useApi();
  const set = (name: keyof Draft) => (e: Event) => setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value });

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    if (draft.source === 'upload' && !file && !editing) return setError('Choose the model file to upload, or register an external URL.');
    // the draft as typed (the service judges it); an edit leaves the name to the path
    const record = {
      ...(editing ? {} : { name: draft.name.trim() }),
      version: draft.version.trim(),
      type: draft.type,
      paradigm: draft.paradigm.trim(),
      n_features: Number(draft.n_features),
      n_classes: Number(draft.n_classes),
      requires_license: draft.requires_license,
      ...(draft.owner_user_id.trim() ? { owner_user_id: draft.owner_user_id.trim() } : {}),
      metadata: {
        ...(props.model?.metadata ?? {}),
        description: draft.description,
        training_subjects: Number(draft.training_subjects),
        accuracy: draft.accuracy,
        feature_type: draft.feature_type,
        recommended_use: draft.recommended_use,
      },
      ...(draft.source === 'url'
        ? { download_url: draft.download_url.trim(), checksum: draft.checksum.trim(), size_bytes: Number(draft.size_bytes) }
        : {}),
    } as ModelRecord;
    setBusy(true);
    try {
      const name = editing ? props.model!.name : draft.name.trim();
      let saved = editing
        ? await ok(api.client.PUT('/admin/v1/models/{name}', { params: { path: { name } }, body: record }))
        : await ok(api.client.POST('/admin/v1/models', { body: record }));
      if (draft.source !== 'url' && file) {
        setProgress(0);
        saved = await api.uploadModelFile(name, file, setProgress);
      }
      props.onSaved(saved);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const text = (name: keyof Draft, label: string, options: { required?: boolean; placeholder?: string; disabled?: boolean } = {}) => (
    <div class="field">
      <label for={`model-${name}`}>{label}</label>
      <input
        id={`model-${name}`}
        value={draft[name]}
        required={options.required}
        placeholder={options.placeholder}
        disabled={options.disabled}
        onInput={set(name)}
      />
    </div>
  );
  const number = (name: keyof Draft, label: string, min: number) => (
    <div class="field">
      <label for={`model-${name}`}>{label}</label>
      <input id={`model-${name}`} type="number" min={min} step={1} required value={draft[name]} onInput={set(name)} />
    </div>
  );
  const choice = (name: keyof Draft, label: string, options: readonly string[]) => (
    <div class="field">
      <label for={`model-${name}`}>{label}</label>
      <select id={`model-${name}`} value={draft[name]} onChange={set(name)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form class="card form" onSubmit={(event) => void submit(event)} aria-labelledby="model-form-title">
      <h2 id="model-form-title">{editing ? `Edit ${props.model!.name}` : 'Add a model'}</h2>
      <div class="form-grid">
        {text('name', 'Name (a-z 0-9 _ . -)', { required: true, placeholder: 'p300_binary_v2', disabled: editing })}
        {text('version', 'Version', { required: true, placeholder: '1.0.0' })}
        {choice('type', 'Type', MODEL_TYPES)}
        {text('paradigm', 'Paradigm', { required: true, placeholder: 'p300' })}
        {number('n_features', 'Features', 1)}
        {number('n_classes', 'Classes', 2)}
        {choice('requires_license', 'Tier needed', TIERS)}
        {text('owner_user_id', 'Owner user id (custom model; optional)')}
      </div>
      <fieldset>
        <legend>Metadata</legend>
        <div class="form-grid">
          {text('description', 'Description', { required: true })}
          {number('training_subjects', 'Training subjects', 0)}
          {text('accuracy', 'Accuracy', { required: true, placeholder: '0.70-0.80' })}
          {text('feature_type', 'Feature type', { required: true, placeholder: 'csp' })}
          {text('recommended_use', 'Recommended use', { required: true })}
        </div>
      </fieldset>
      <fieldset>
        <legend>The file</legend>
        <div class="radios">
          {editing && (
            <label>
              <input
                type="radio"
                name="source"
                value="keep"
                checked={draft.source === 'keep'}
                onChange={() => setDraft({ ...draft, source: 'keep' })}
              />{' '}
              Keep the current file
            </label>
          )}
          <label>
            <input
              type="radio"
              name="source"
              value="upload"
              checked={draft.source === 'upload'}
              onChange={() => setDraft({ ...draft, source: 'upload' })}
            />{' '}
            Upload a file
          </label>
          <label>
            <input
              type="radio"
              name="source"
              value="url"
              checked={draft.source === 'url'}
              onChange={() => setDraft({ ...draft, source: 'url' })}
            />{' '}
            An external URL
          </label>
        </div>
        {draft.source === 'upload' && (
          <div class="field">
            <label for="model-file">Model file</label>
            <input id="model-file" type="file" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
            {file && <p class="muted">{formatBytes(file.size)}</p>}
          </div>
        )}
        {draft.source === 'url' && (
          <div class="form-grid">
            {text('download_url', 'Download URL (https://…)', { required: true })}
            {text('checksum', 'Checksum (sha256:<64 hex>)', { required: true })}
            {number('size_bytes', 'Size in bytes', 1)}
          </div>
        )}
        {progress !== null && (
          <div class="progress">
            <label for="upload-progress">Upload</label>
            <progress id="upload-progress" max={1} value={progress}>
              {formatPercent(progress)}
            </progress>
            <span>{formatPercent(progress)}</span>
          </div>
        )}
      </fieldset>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" onClick={props.onCancel} disabled={busy}>
          Cancel
        </button>
        <ActionButton type="submit" class="primary" busy={busy} busyText="Saving…">
          Save
        </ActionButton>
      </div>
    </form>
  );
}
