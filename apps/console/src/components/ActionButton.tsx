import type { ComponentChildren } from 'preact';

/** A button of a useAction: disabled and saying so while the action runs (aria-busy), or disabled with a reason. */
export function ActionButton(props: {
  busy: boolean;
  busyText: string;
  children: ComponentChildren;
  type?: 'button' | 'submit';
  class?: string;
  disabled?: boolean;
  describedBy?: string;
  label?: string;
  onClick?: () => void;
}) {
  return (
    <button
      type={props.type ?? 'button'}
      class={props.class}
      disabled={props.disabled || props.busy}
      aria-busy={props.busy}
      aria-describedby={props.describedBy}
      aria-label={props.label}
      onClick={props.onClick}
    >
      {props.busy ? props.busyText : props.children}
    </button>
  );
}
