/**
 * A button for something that cannot be undone (revoke a key, delete an endpoint, rotate a
 * secret) that asks first, in place. Focus goes to "Cancel", the safe answer, and comes back to
 * the button when the question is put away, so keyboard users never lose their place; Escape
 * cancels.
 */
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';

export function ConfirmAction({
  label,
  question,
  confirmLabel,
  busy = false,
  onConfirm,
}: {
  label: string;
  question: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm(): Promise<unknown>;
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
