import { describe, expect, it } from 'vitest';
import { t } from '@fastgate/core/messages';
import { fieldErrorOf } from './form-errors';

describe('server field errors', () => {
  it('reads the field and detail back from either language', () => {
    expect(fieldErrorOf(t('common.invalid_field', 'zh-CN', { field: 'user_id', detail: '无效的数字' }))).toEqual({ field: 'user_id', detail: '无效的数字' });
    expect(fieldErrorOf(t('common.invalid_field', 'en-US', { field: 'preset_config.min_tokens', detail: 'Too small: 1' }))).toEqual({
      field: 'preset_config.min_tokens',
      detail: 'Too small: 1',
    });
  });

  it('leaves other messages alone', () => {
    expect(fieldErrorOf('账号已存在')).toBeUndefined();
    expect(fieldErrorOf('')).toBeUndefined();
  });
});
