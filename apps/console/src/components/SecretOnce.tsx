import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/** A key's plaintext, shown this once, with a copy button and a warning. */
export function SecretOnce(props: { title: string; secret: string; children?: ComponentChildren; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser refused the clipboard: select the key and copy it by hand.');
    }
  };
  return (
    <section class="secret" aria-labelledby="secret-title">
      <h2 id="secret-title">{props.title}</h2>
      <p class="warning" role="alert">
        This is the only time the key is shown. Copy it now and hand it over securely: the service keeps only its digest and cannot show it
        again.
      </p>
      <label for="secret-value">API key</label>
      <div class="copy-row">
        <input id="secret-value" class="mono" readOnly value={props.secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {copied && <p role="status">{copied}</p>}
      {props.children}
      <button type="button" onClick={props.onDone}>
        I have copied it: hide the key
      </button>
    </section>
  );
}
