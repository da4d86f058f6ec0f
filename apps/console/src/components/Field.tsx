import type { ComponentChildren } from 'preact';

/** A labelled form field: the label names the control by `id`; an optional hint under it. */
export function Field(props: { id: string; label: string; hint?: string; class?: string; children: ComponentChildren }) {
  return (
    <div class={props.class ? `field ${props.class}` : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && <p class="muted hint">{props.hint}</p>}
    </div>
  );
}

/** A <select> of `options`, with an "Any" choice (value '') when `any` is given. */
export function Choice(props: {
  id: string;
  value: string;
  options: readonly string[];
  any?: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <select id={props.id} value={props.value} disabled={props.disabled} onChange={(e) => props.onChange(e.currentTarget.value)}>
      {props.any !== undefined && <option value="">{props.any}</option>}
      {props.options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  );
}
