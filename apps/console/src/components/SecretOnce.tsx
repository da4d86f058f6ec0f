import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * What the service keeps of the secret, for the warning: only its digest (a key, an admin token), or
 * the secret itself, to sign with (a webhook endpoint's signing secret); either way it is never shown again.
 */
export type SecretKept = 'digest' | 'to-sign';

/**
 * A key's (or an operator's admin token's, or a webhook endpoint's signing secret's: `noun`, `label`
 * and `kept`) plaintext, shown this once, with a copy button and a warning. It takes the focus when it
 * appears, and warns before it is navigated away from: closing or reloading the tab (beforeunload) and
 * following a link inside the console (a confirmation) until "I have copied it".
 */
export function SecretOnce(props: {
  title: string;
  secret: string;
  /** What the secret is, in the warnings: 'key' unless said. */
  noun?: string;
  /** The label of its field: 'API key' unless said. */
  label?: string;
  /** What the service keeps of it, for the warning: 'digest' unless said. */
  kept?: SecretKept;
  children?: ComponentChildren;
  onDone: () => void;
}) {
  const noun = props.noun ?? 'key';
  const [copied, setCopied] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    // capture: before preact-iso's own click handler routes the link
    const leaving = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (link && !link.closest('.secret') && !confirm(`The ${noun} is shown only this once. Leave without copying it?`)) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    };
    addEventListener('beforeunload', beforeUnload);
    addEventListener('click', leaving, true);
    return () => {
      removeEventListener('beforeunload', beforeUnload);
      removeEventListener('click', leaving, true);
    };
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied(`The browser refused the clipboard: select the ${noun} and copy it by hand.`);
    }
  };
  return (
    <section class="secret" aria-labelledby="secret-title">
      <h2 id="secret-title" ref={heading} tabIndex={-1}>
        {props.title}
      </h2>
      <p class="warning" role="alert">
        {props.kept === 'to-sign'
          ? `This is the only time the ${noun} is shown. Copy it now and give it to the receiver securely: the service keeps it to sign each message, but never shows it again.`
          : `This is the only time the ${noun} is shown. Copy it now and hand it over securely: the service keeps only its digest and cannot show it again.`}
      </p>
      <label for="secret-value">{props.label ?? 'API key'}</label>
      <div class="copy-row">
        <input id="secret-value" class="mono" readOnly value={props.secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {copied && <p role="status">{copied}</p>}
      {props.children}
      <button type="button" onClick={props.onDone}>
        I have copied it: hide the {noun}
      </button>
    </section>
  );
}
