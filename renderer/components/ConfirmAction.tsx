/**
 * A button for something that cannot be undone (revoke a key, delete an endpoint, rotate a
 * secret) that asks first, in place. Focus goes to "Cancel", the safe answer, and comes back to
 * the button when the question is put away, so keyboard users never lose their place; Escape
 * cancels.
 */
import { useEffect, useRef, useState } from 'react';
import type { ReactNode, Ref } from 'react';

/** What opens the question, for a caller whose control is not a plain button (a switch). */
export type ConfirmTrigger = (props: { ref: Ref<HTMLButtonElement>; onClick(): void }) => ReactNode;

export function ConfirmAction({
  label,
  question,
  confirmLabel,
  busy = false,
  onConfirm,
  trigger: renderTrigger,
}: {
  label: string;
  question: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm(): Promise<unknown>;
  trigger?: ConfirmTrigger;
}) {
  const [asking, setAsking] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (asked.current) trigger.current?.focus();
    asked.current = asking;
  }, [asking]);

  if (!asking) {
    if (renderTrigger) return <>{renderTrigger({ ref: trigger, onClick: () => setAsking(true) })}</>;
    return (
      <button type="button" className="button button--small" ref={trigger} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={label.replace(/…$/, '')} onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}>
      <span>{question}</span>
      <button type="button" className="button button--small button--danger" disabled={busy} onClick={() => void onConfirm().then(() => setAsking(false))}>
        {confirmLabel}
      </button>
      <button type="button" className="button button--small" ref={cancel} onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
