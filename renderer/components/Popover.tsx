/**
 * A button that opens a panel below it (the filter drop-down, the column chooser). The panel
 * closes on Escape, on a click elsewhere, or on the button again; Escape gives the focus back to
 * the button so keyboard users keep their place.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';

export function Popover({
  label,
  title,
  className = '',
  testId,
  children,
}: {
  label: ReactNode;
  title: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  return (
    <div
      className={`popover ${className}`}
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        type="button"
        ref={button}
        className={`button popover__button${open ? ' is-open' : ''}`}
        aria-expanded={open}
        aria-controls={panelId}
        title={title}
        data-testid={testId}
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      {open && (
        <div className="popover__panel" id={panelId} role="group" aria-label={title}>
          {children}
        </div>
      )}
    </div>
  );
}
