/** The per-field three-way merge of sync: local edits coalesced, a pull met field by field, what a push leaves. */
import { describe, expect, it } from 'vitest';
import { afterPush, markSent, mergeLocalEdit, mergeRemote } from '../../../sync/merge';

describe('local edits', () => {
  it('keep the value before the first pending edit as the base and the newest as the value', () => {
    let pending = mergeLocalEdit({}, [{ field: 'labelReference', old: 'A', new: 'B' }]);
    pending = mergeLocalEdit(pending, [{ field: 'labelReference', old: 'B', new: 'C' }, { field: 'hasFlag', old: false, new: true }]);
    expect(pending).toEqual({ labelReference: { base: 'A', value: 'C' }, hasFlag: { base: false, value: true } });
  });

  it('leave nothing to send for a field edited back to its base', () => {
    const pending = mergeLocalEdit({ 'limits.maxTemperature': { base: 8, value: 9 } }, [{ field: 'limits.maxTemperature', old: 9, new: 8 }]);
    expect(pending).toEqual({});
  });

  it('compare custom field values by content', () => {
    const pending = mergeLocalEdit({ 'customFields.po': { base: ['a', 1], value: 'x' } }, [{ field: 'customFields.po', old: 'x', new: ['a', 1] }]);
    expect(pending).toEqual({});
  });
});

describe('a pulled report met with pending fields', () => {
  const pending = {
    labelReference: { base: 'A', value: 'L' },
    status: { base: 'active', value: 'completed' },
    hasFlag: { base: false, value: true },
  };
  const remote = (values: Record<string, unknown>) => (field: string) => values[field] as never;

  it('keeps the local value of a field the remote did not change, and it stays pending', () => {
    const merge = mergeRemote(pending, remote({ labelReference: 'A', status: 'active', hasFlag: false }), 'remote');
    expect(merge).toEqual({ keepLocal: { labelReference: 'L', status: 'completed', hasFlag: true }, pending, conflicts: [] });
  });

  it('drops a field the remote changed to the local value: nothing to send, no conflict', () => {
    const merge = mergeRemote(pending, remote({ labelReference: 'L', status: 'active', hasFlag: false }), 'remote');
    expect(merge.conflicts).toEqual([]);
    expect(merge.pending).not.toHaveProperty('labelReference');
    expect(merge.keepLocal).not.toHaveProperty('labelReference');
  });

  it('records a conflict for a field both changed differently; by default the remote wins and the local value is only in the record', () => {
    const merge = mergeRemote(pending, remote({ labelReference: 'R', status: 'active', hasFlag: false }), 'remote');
    expect(merge.conflicts).toEqual([{ field: 'labelReference', base: 'A', local: 'L', remote: 'R' }]);
    expect(merge.keepLocal).not.toHaveProperty('labelReference');
    expect(merge.pending).not.toHaveProperty('labelReference');
    expect(merge.pending.status).toEqual(pending.status);
  });

  it('with the local policy keeps the local value pending on the remote value as its base, so the same pull again is no new conflict', () => {
    const once = mergeRemote(pending, remote({ labelReference: 'R', status: 'active', hasFlag: false }), 'local');
    expect(once.conflicts).toHaveLength(1);
    expect(once.keepLocal.labelReference).toBe('L');
    expect(once.pending.labelReference).toEqual({ base: 'R', value: 'L' });
    const again = mergeRemote(once.pending, remote({ labelReference: 'R', status: 'active', hasFlag: false }), 'local');
    expect(again.conflicts).toEqual([]);
    expect(again.pending).toEqual(once.pending);
  });
});

describe('after a push was accepted', () => {
  it('nothing stays of what was sent unchanged; a field edited again meanwhile stays on the sent value as its base', () => {
    const sent = { labelReference: { base: 'A', value: 'B' }, hasFlag: { base: false, value: true } };
    const now = { labelReference: { base: 'A', value: 'C' }, hasFlag: { base: false, value: true }, status: { base: 'active', value: 'completed' } };
    expect(afterPush(now, sent)).toEqual({ labelReference: { base: 'B', value: 'C' }, status: { base: 'active', value: 'completed' } });
  });
});

describe('values sent without an answer (docs/sync.md)', () => {
  const remote = (values: Record<string, unknown>) => (field: string) => values[field] as never;

  it('are remembered per field, each once, and only for fields still pending', () => {
    let pending = markSent({ labelReference: { base: 'A', value: 'B' } }, { labelReference: 'B', hasFlag: true });
    pending = markSent(pending, { labelReference: 'B' });
    expect(pending).toEqual({ labelReference: { base: 'A', value: 'B', sent: ['B'] } });
  });

  it('stay through a newer local edit of the field', () => {
    const pending = mergeLocalEdit({ labelReference: { base: 'A', value: 'B', sent: ['B'] } }, [{ field: 'labelReference', old: 'B', new: 'C' }]);
    expect(pending).toEqual({ labelReference: { base: 'A', value: 'C', sent: ['B'] } });
  });

  it('keep a field edited back to its base pending: the value sent may have arrived', () => {
    const pending = mergeLocalEdit({ labelReference: { base: 'A', value: 'B', sent: ['B'] } }, [{ field: 'labelReference', old: 'B', new: 'A' }]);
    expect(pending).toEqual({ labelReference: { base: 'A', value: 'A', sent: ['B'] } });
    const merge = mergeRemote(pending, remote({ labelReference: 'B' }), 'remote');
    expect(merge.conflicts).toEqual([]);
    expect(merge.keepLocal).toEqual({ labelReference: 'A' });
  });

  it('make a pulled value equal to one of them this desk\'s own push: it becomes the base, the newer local value stays pending, no conflict', () => {
    const pending = { labelReference: { base: 'A', value: 'C', sent: ['B'] } };
    const merge = mergeRemote(pending, remote({ labelReference: 'B' }), 'remote');
    expect(merge).toEqual({ keepLocal: { labelReference: 'C' }, pending: { labelReference: { base: 'B', value: 'C', sent: ['B'] } }, conflicts: [] });
  });

  it('explain only their own values: another writer\'s value is a conflict still', () => {
    const pending = { labelReference: { base: 'A', value: 'C', sent: ['B'] } };
    const merge = mergeRemote(pending, remote({ labelReference: 'R' }), 'remote');
    expect(merge.conflicts).toEqual([{ field: 'labelReference', base: 'A', local: 'C', remote: 'R' }]);
    expect(merge.pending).toEqual({});
  });

  it('are forgotten once a push is answered: the remote then holds what was sent', () => {
    const sent = { labelReference: { base: 'A', value: 'C', sent: ['B', 'C'] } };
    const now = { labelReference: { base: 'A', value: 'D', sent: ['B', 'C'] } };
    expect(afterPush(now, sent)).toEqual({ labelReference: { base: 'C', value: 'D' } });
  });
});
