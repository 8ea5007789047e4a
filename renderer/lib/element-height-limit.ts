/**
 * The tallest element this browser lays out, measured once: an element asked to be a billion
 * pixels tall is cut to the engine's limit (about 33.5 million px in Chromium, 17.9 million in
 * Firefox). A twentieth is kept back, so a list scaled into the rest always fits.
 */
let measured: number | null = null;

export function browserHeightLimit(): number {
  if (measured !== null) return measured;
  if (typeof document === 'undefined' || !document.body) return Number.POSITIVE_INFINITY;
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;top:0;left:0;width:1px;height:1000000000px;visibility:hidden;pointer-events:none';
  document.body.appendChild(probe);
  const height = probe.getBoundingClientRect().height;
  probe.remove();
  measured = height > 0 ? Math.floor(height * 0.95) : Number.POSITIVE_INFINITY;
  return measured;
}
