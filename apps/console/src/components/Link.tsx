import type { ComponentChildren } from 'preact';

/** A real link (keyboard, middle click, copy address); preact-iso's LocationProvider navigates inside the app on a plain click. */
export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a href={props.href} class={props.class} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}
