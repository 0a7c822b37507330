import { describe, expect, it } from 'vitest';
import { removeFrom } from './lists';

describe('removeFrom', () => {
  it('takes one occurrence out, the last element moved into its place', () => {
    const list = ['a', 'b', 'c', 'd'];
    removeFrom(list, 'b');
    expect(list).toEqual(['a', 'd', 'c']);
    removeFrom(list, 'c');
    expect(list).toEqual(['a', 'd']);
  });

  it('leaves the list as it is when the item is not in it, and empties a list of one', () => {
    const list = [1];
    removeFrom(list, 2);
    expect(list).toEqual([1]);
    removeFrom(list, 1);
    expect(list).toEqual([]);
    removeFrom(list, 1);
    expect(list).toEqual([]);
  });
});
