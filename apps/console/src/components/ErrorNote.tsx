/** An error in words, announced to screen readers. */
export function ErrorNote(props: { error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  const text = props.error instanceof Error ? props.error.message : JSON.stringify(props.error);
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}
