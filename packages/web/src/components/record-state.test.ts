import { describe, expect, it } from 'vitest';
import { recordProblem } from './record-state';

const idle = { isError: false, isSuccess: false, data: undefined };

describe('recordProblem', () => {
  it('names a missing id before anything is loaded', () => {
    expect(recordProblem(null, idle)).toBe('missingId');
    expect(recordProblem('', idle)).toBe('missingId');
  });
  it('is silent while the record loads and once it has one', () => {
    expect(recordProblem('7', idle)).toBeUndefined();
    expect(recordProblem('7', { isError: false, isSuccess: true, data: { id: '7' } })).toBeUndefined();
  });
  it('calls a refused id and an empty answer a failed load', () => {
    expect(recordProblem('7', { isError: true, isSuccess: false, data: undefined })).toBe('loadFailed');
    expect(recordProblem('7', { isError: false, isSuccess: true, data: null })).toBe('loadFailed');
  });
});
