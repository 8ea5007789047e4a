/**
 * The table and the open report side by side, with a handle between them to drag (or to move
 * with the arrow keys) that sets the report's width, remembered for the signed-in key. Where the
 * two do not both fit, the report takes the whole width above the table, which stays as it was
 * (scroll position, selection) for when the report is closed.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { stores, useUi } from '../state/stores';

/** Below this width the report and a useful table do not fit side by side. */
export const SPLIT_MIN_WIDTH = 1400;
const MIN_TABLE = 440;
const MIN_DETAIL = 560;
const KEY_STEP = 40;

export function clampDetailWidth(width: number, available: number): number {
  return Math.max(MIN_DETAIL, Math.min(available - MIN_TABLE, width));
}

export function SplitPane({ table, detail }: { table: ReactNode; detail: ReactNode | null }) {
  const box = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState(0);
  const stored = useUi((s) => s.detailWidth);
  const [dragWidth, setDragWidth] = useState<number | null>(null);
  // The drag lives in a ref, not in render state: its end must store the width the pointer
  // reached, even when it comes before React has rendered the last move.
  const drag = useRef<{ startX: number; startWidth: number; width: number } | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setAvailable(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const split = detail !== null && available >= SPLIT_MIN_WIDTH;
  const overlay = detail !== null && !split;
  const width = clampDetailWidth(dragWidth ?? stored ?? Math.round(available * 0.56), available);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startWidth: width, width };
    setDragWidth(width);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current || e.buttons === 0) return;
    drag.current.width = clampDetailWidth(drag.current.startWidth - (e.clientX - drag.current.startX), available);
    setDragWidth(drag.current.width);
  };
  /** The handle holds the pointer from its press: its release, or losing it, ends the drag. */
  const endDrag = () => {
    const ended = drag.current;
    if (!ended) return;
    drag.current = null;
    stores.ui.getState().setDetailWidth(ended.width);
    setDragWidth(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = { ArrowLeft: width + KEY_STEP, ArrowRight: width - KEY_STEP, Home: available - MIN_TABLE, End: MIN_DETAIL }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    stores.ui.getState().setDetailWidth(clampDetailWidth(next, available));
  };

  return (
    <div className={`split${split ? ' split--side' : ''}${overlay ? ' split--over' : ''}`} ref={box} data-testid="split">
      <div className="split__table" inert={overlay}>
        {table}
      </div>
      {split && (
        <div
          className="split__handle"
          role="separator"
          aria-orientation="vertical"
          aria-label="Width of the report panel"
          aria-valuemin={MIN_DETAIL}
          aria-valuemax={available - MIN_TABLE}
          aria-valuenow={width}
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onLostPointerCapture={endDrag}
          onKeyDown={onKeyDown}
          title="Drag, or use the arrow keys, to change the width"
          data-testid="split-handle"
        />
      )}
      {detail !== null && (
        <div className="split__detail" style={split ? { width } : undefined} data-testid="detail-pane">
          {detail}
        </div>
      )}
    </div>
  );
}
