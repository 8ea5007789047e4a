import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMNS, gridTemplate, minimumWidth, normaliseColumns } from '../../renderer/lib/columns';
import { createUiStore, MAX_SAVED_VIEWS } from '../../renderer/state/ui';

function memoryStorage() {
  const map = new Map<string, string>();
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe('columns', () => {
  it('keeps Reference and Alert first and known ids only, in table order', () => {
    expect(normaliseColumns(['updated', 'nonsense', 'label'])).toEqual(['reference', 'alert', 'label', 'updated']);
    expect(normaliseColumns('not a list')).toEqual([...DEFAULT_COLUMNS]);
  });

  it('fits the default columns on a 1280 px screen', () => {
    // 1280 less the page padding (24), the table border (2) and a vertical scrollbar (15).
    expect(minimumWidth(DEFAULT_COLUMNS)).toBeLessThanOrEqual(1280 - 24 - 2 - 15);
    expect(gridTemplate(['reference', 'alert'])).toBe('minmax(180px, 1fr) 136px');
  });
});

describe('ui store: the arrangement of each signed-in key', () => {
  it('remembers columns and the report width per key, and falls back to the defaults', () => {
    const storage = memoryStorage();
    const ui = createUiStore('reports', { storage });
    ui.getState().showArrangementOf('acme/k1');
    ui.getState().setColumns(['reference', 'alert', 'created']);
    ui.getState().setDetailWidth(812.4);

    ui.getState().showArrangementOf('acme/k2');
    expect(ui.getState().columns).toEqual([...DEFAULT_COLUMNS]);
    expect(ui.getState().detailWidth).toBeNull();

    const again = createUiStore('reports', { storage });
    again.getState().showArrangementOf('acme/k1');
    expect(again.getState().columns).toEqual(['reference', 'alert', 'created']);
    expect(again.getState().detailWidth).toBe(812);
  });

  it('shrugs off a damaged entry', () => {
    const storage = memoryStorage();
    storage.setItem('labeldesk.layout.acme/k1', '{not json');
    const ui = createUiStore('reports', { storage });
    ui.getState().showArrangementOf('acme/k1');
    expect(ui.getState().columns).toEqual([...DEFAULT_COLUMNS]);
  });
});

describe('ui store: saved views', () => {
  it('keeps each person’s views by name, a name saved again replacing the old, across restarts', () => {
    const storage = memoryStorage();
    const ui = createUiStore('reports', { storage });
    ui.getState().showArrangementOf('acme/person:anna');
    ui.getState().saveView('Critical air', '?alert=critical&mode=air');
    ui.getState().saveView('To decide', '?review=awaitingReview');
    ui.getState().saveView(' critical AIR ', '?alert=critical');
    expect(ui.getState().views).toEqual([
      { name: 'To decide', search: '?review=awaitingReview' },
      { name: 'critical AIR', search: '?alert=critical' },
    ]);

    ui.getState().showArrangementOf('acme/person:rita');
    expect(ui.getState().views).toEqual([]);

    const again = createUiStore('reports', { storage });
    again.getState().showArrangementOf('acme/person:anna');
    again.getState().removeView('to decide');
    expect(again.getState().views.map((v) => v.name)).toEqual(['critical AIR']);
  });

  it('keeps at most MAX_SAVED_VIEWS, the oldest going first, and drops entries that are not views', () => {
    const storage = memoryStorage();
    storage.setItem('labeldesk.layout.acme/k1', JSON.stringify({ views: [{ name: 'ok', search: '?q=1' }, { name: 3 }, null, { name: ' ', search: '' }] }));
    const ui = createUiStore('reports', { storage });
    ui.getState().showArrangementOf('acme/k1');
    expect(ui.getState().views).toEqual([{ name: 'ok', search: '?q=1' }]);
    for (let i = 0; i < MAX_SAVED_VIEWS + 2; i++) ui.getState().saveView(`v${i}`, `?q=${i}`);
    expect(ui.getState().views).toHaveLength(MAX_SAVED_VIEWS);
    expect(ui.getState().views[0].name).toBe('v2');
  });
});
