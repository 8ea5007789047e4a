/**
 * Scrolling a list taller than a browser lets an element be. Chromium stops growing an element
 * at about 33.5 million pixels (Firefox at about 17.9 million), so a million rows of 44 px cannot
 * be laid out at their real height. Past a safe maximum the scrolled content is given that
 * maximum instead, and each scroll position maps onto an offset into the real list.
 *
 * The mapping is made of pages: inside a page a scroll of n pixels moves the list by exactly n
 * pixels, so wheel, arrow and small drags move row by row; from one page to the next the list
 * jumps ahead by a fixed extra, never more than half the viewport, so a row that was on screen
 * before the jump is still there after it and no row is skipped. The extras add up to exactly what
 * the real list is longer than the scroll range: the first scroll position shows the first row and
 * the last one shows the last row. Below the maximum the mapping is the identity.
 *
 * Offsets and scroll positions are in pixels of the scrolled area (below any sticky header).
 */

/**
 * The tallest scrolled content the table lays out: below Chromium's (and so Electron's) limit of
 * 33 554 431 px with room to spare. Browsers with a lower limit are measured (see the table).
 */
export const SAFE_MAX_SCROLL_HEIGHT = 32_000_000;

export interface ScrollScale {
  /** Height of the real list: rows × row height. */
  contentHeight: number;
  /** Height the scrolled content is given: the real height, or the maximum when that is taller. */
  physicalHeight: number;
  /** The visible height of the scrolled area. */
  viewportHeight: number;
  /** Largest scroll position. */
  maxScrollTop: number;
  /** Largest offset into the real list (its last row at the bottom of the viewport). */
  maxOffset: number;
  /** Where page boundaries fall: there are `boundaries + 1` pages; 0 when not scaled. */
  boundaries: number;
}

export function scrollScale(contentHeight: number, viewportHeight: number, maxHeight: number): ScrollScale {
  const content = Math.max(0, Math.round(contentHeight));
  const viewport = Math.max(0, Math.round(viewportHeight));
  const physicalHeight = Math.min(content, Math.max(1, Math.floor(maxHeight)));
  const maxScrollTop = Math.max(0, physicalHeight - viewport);
  const maxOffset = Math.max(0, content - viewport);
  const extra = maxOffset - maxScrollTop;
  if (extra <= 0 || maxScrollTop === 0) return { contentHeight: content, physicalHeight, viewportHeight: viewport, maxScrollTop, maxOffset, boundaries: 0 };
  // Each jump at most half the viewport; as few pages as that allows, so pages stay long. When even
  // one-pixel pages cannot absorb the extra (a list thousands of times taller than the maximum),
  // every position is a page of its own and the jumps grow as they must.
  const largestJump = Math.max(1, Math.floor(viewport / 2));
  const boundaries = Math.min(maxScrollTop, Math.ceil(extra / largestJump));
  return { contentHeight: content, physicalHeight, viewportHeight: viewport, maxScrollTop, maxOffset, boundaries };
}

/** The page a scroll position falls in, 0 … boundaries. */
function pageAt(scale: ScrollScale, scrollTop: number): number {
  return Math.min(scale.boundaries, Math.floor((scrollTop * (scale.boundaries + 1)) / scale.maxScrollTop));
}

/** The extra every position of page k is moved on by. */
function pageExtra(scale: ScrollScale, page: number): number {
  return Math.round((page * (scale.maxOffset - scale.maxScrollTop)) / scale.boundaries);
}

/** The offset into the real list shown at a scroll position. */
export function offsetAt(scale: ScrollScale, scrollTop: number): number {
  const top = Math.min(scale.maxScrollTop, Math.max(0, scrollTop));
  if (scale.boundaries === 0) return Math.min(top, scale.maxOffset);
  return top + pageExtra(scale, pageAt(scale, top));
}

/**
 * The whole-pixel scroll position that shows `offset`: with 'atOrBefore' the last position whose
 * offset is not past it (the offset then lies at or below the viewport's top edge), with
 * 'atOrAfter' the first position whose offset is not before it. An offset inside a jump between
 * two pages is reached as closely as the pages allow.
 */
export function scrollTopFor(scale: ScrollScale, offset: number, side: 'atOrBefore' | 'atOrAfter'): number {
  const target = Math.min(scale.maxOffset, Math.max(0, offset));
  if (scale.boundaries === 0) return Math.min(scale.maxScrollTop, Math.round(target));
  // offsetAt only grows with the scroll position, so a binary search finds the edge.
  if (side === 'atOrBefore') {
    let low = 0;
    let high = scale.maxScrollTop;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (offsetAt(scale, mid) <= target) low = mid;
      else high = mid - 1;
    }
    return low;
  }
  let low = 0;
  let high = scale.maxScrollTop;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (offsetAt(scale, mid) >= target) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The scroll position that brings [top, bottom) of the real list fully into view, or null when it
 * is already in view. Just below the viewport it comes in at the bottom edge, as when stepping down
 * row by row; above it, or more than a viewport below, it goes to the top edge, so a jump shows
 * what follows the row rather than what precedes it.
 */
export function scrollTopToReveal(scale: ScrollScale, scrollTop: number, top: number, bottom: number): number | null {
  const shown = offsetAt(scale, scrollTop);
  if (top >= shown && bottom <= shown + scale.viewportHeight) return null;
  const near = top >= shown && bottom <= shown + 2 * scale.viewportHeight && bottom - top <= scale.viewportHeight;
  if (!near) return scrollTopFor(scale, top, 'atOrBefore');
  return scrollTopFor(scale, bottom - scale.viewportHeight, 'atOrAfter');
}
