import { describe, expect, it } from 'vitest';
import { compactFilters, readFilters, readPaging, valueTypes, writeQuery } from './url-query';

const types = { name: 'string', status: 'number', updated_at: 'strings' } as const;

describe('url query codec', () => {
  it('reads paging with fallbacks', () => {
    expect(readPaging(new URLSearchParams('current=3&pageSize=50'))).toEqual({ current: 3, pageSize: 50 });
    expect(readPaging(new URLSearchParams('current=-1&pageSize=7'))).toEqual({ current: 1, pageSize: 20 });
    expect(readPaging(new URLSearchParams(''))).toEqual({ current: 1, pageSize: 20 });
  });

  it('reads typed filters and skips empty ones', () => {
    const search = new URLSearchParams('name=op&status=2&updated_at=2025-01-01&updated_at=2025-01-31&other=x&remark=');
    expect(readFilters(search, types)).toEqual({ name: 'op', status: 2, updated_at: ['2025-01-01', '2025-01-31'] });
    expect(readFilters(new URLSearchParams('status=abc'), types)).toEqual({});
  });

  it('writes filters and paging, keeping unrelated params', () => {
    const next = writeQuery(new URLSearchParams('app_id=7&name=old&current=4'), types, { name: '', status: 1, updated_at: ['a', 'b'] }, { current: 1, pageSize: 100 });
    expect(next.toString()).toBe('app_id=7&status=1&updated_at=a&updated_at=b&pageSize=100');
    expect(readFilters(next, types)).toEqual({ status: 1, updated_at: ['a', 'b'] });
  });

  it('drops empties from the request body', () => {
    expect(compactFilters({ a: '', b: [], c: undefined, d: 0, e: 'x' })).toEqual({ d: 0, e: 'x' });
  });
});

describe('value types', () => {
  it('follow the kind unless overridden', () => {
    expect(valueTypes([
      { field: 'a', kind: 'text' },
      { field: 'b', kind: 'status' },
      { field: 'c', kind: 'dateRange' },
      { field: 'd', kind: 'select', multiple: true },
      { field: 'e', kind: 'select', valueType: 'numbers', multiple: true },
    ])).toEqual({ a: 'string', b: 'number', c: 'strings', d: 'strings', e: 'numbers' });
    expect(readFilters(new URLSearchParams('e=1&e=x&e=3'), { e: 'numbers' })).toEqual({ e: [1, 3] });
  });
});
