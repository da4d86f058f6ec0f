import { useEffect, useRef, useState } from 'preact/hooks';

interface Question {
  readonly title: string;
  readonly text: string;
  readonly action: string;
  readonly danger: boolean;
  readonly answer: (yes: boolean) => void;
}

/**
 * Asks before an action, in a modal <dialog> (focus stays inside, Escape cancels).
 * Returns the dialog to render and `ask`, which resolves to the operator's answer.
 */
export function useConfirm() {
  const [question, setQuestion] = useState<Question | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (question && dialog && !dialog.open) dialog.showModal();
  }, [question]);
  const close = (yes: boolean) => {
    question?.answer(yes);
    ref.current?.close();
    setQuestion(null);
  };
  const ask = (title: string, text: string, action: string, danger = false) =>
    new Promise<boolean>((answer) => setQuestion({ title, text, action, danger, answer }));
  const dialog = question ? (
    <dialog ref={ref} class="confirm" aria-labelledby="confirm-title" onCancel={() => close(false)}>
      <h2 id="confirm-title">{question.title}</h2>
      <p>{question.text}</p>
      <div class="actions">
        <button type="button" onClick={() => close(false)}>
          Cancel
        </button>
        <button type="button" class={question.danger ? 'danger' : 'primary'} onClick={() => close(true)}>
          {question.action}
        </button>
      </div>
    </dialog>
  ) : null;
  return { dialog, ask };
}
