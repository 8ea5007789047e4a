/**
 * A secret the service shows once (a new API key, a webhook's signing secret): the value to
 * copy, a plain note that it cannot be seen again, and a button to put it away. Keyboard focus
 * moves to it when it appears, so nobody tabs past a value they will never see again.
 */
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="button button--small"
      onClick={() => {
        navigator.clipboard
          .writeText(text)
          .then(() => setCopied('done'))
          .catch(() => setCopied('failed'));
      }}
    >
      {copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed: select and copy by hand' : label}
    </button>
  );
}

export function ShownOnce({
  children,
  value,
  valueLabel,
  testId,
  onDismiss,
}: {
  /** What was made and why it matters; the "shown once" sentence follows it. */
  children: ReactNode;
  value: string;
  /** Names the value for screen readers (the code element has no label of its own). */
  valueLabel: string;
  testId: string;
  onDismiss(): void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div className="new-key" role="status" data-testid={testId} ref={box} tabIndex={-1}>
      <p>
        {children} Copy it now: it is shown only once and cannot be seen again.
      </p>
      <div className="new-key__value">
        <code data-testid={`${testId}-value`} aria-label={valueLabel}>
          {value}
        </code>
        <CopyButton text={value} />
      </div>
      <button type="button" className="button" onClick={onDismiss}>
        I have copied it
      </button>
    </div>
  );
}
