import { describe, expect, it } from 'vitest';
import { DEFAULT_TASK_SECONDS, estimateTask, finalTaskPrice, taskPrice, taskUnits } from './task-price';

const quotas = {
  digital_human_quota: { fixed_quota: 1000, unit: 'second' },
  audio_clone_quota: { fixed_quota: 7, unit: 'character' },
  video_second_creation_quota: { fixed_quota: 600, unit: 'minute' },
};

describe('task prices', () => {
  it('counts units of each kind', () => {
    expect(taskUnits('call', 90, 12)).toBe(1);
    expect(taskUnits('second', 90, 12)).toBe(90);
    expect(taskUnits('minute', 90, 12)).toBe(1.5);
    expect(taskUnits('character', 90, 12)).toBe(12);
  });

  it('takes the block of the model type and reserves the requested or default duration', () => {
    const p = taskPrice({ quotas, type: 1000, discountBp: 10_000 });
    expect(p).toMatchObject({ block: 'digital_human_quota', fixed_quota: 1000, unit: 'second', seconds: DEFAULT_TASK_SECONDS });
    expect(estimateTask(p)).toBe(60_000);
    expect(estimateTask(taskPrice({ quotas, type: 1000, discountBp: 10_000, duration: 45 }))).toBe(45_000);
  });

  it('prices the final duration, falling back to the reserved one when the provider says none', () => {
    const p = taskPrice({ quotas, type: 1000, discountBp: 10_000, duration: 45 });
    expect(finalTaskPrice(p, 30)).toBe(30_000);
    expect(finalTaskPrice(p, 0)).toBe(45_000);
  });

  it('prices per minute and per character (code points), with the discount rounded up once', () => {
    const minute = taskPrice({ quotas, type: 1002, discountBp: 10_000, duration: 90 });
    expect(estimateTask(minute)).toBe(900);
    expect(finalTaskPrice(minute, 30)).toBe(300);
    const clone = taskPrice({ quotas, type: 1001, discountBp: 8_000, text: '你好 ok' });
    expect(clone.characters).toBe(5);
    // 5 × 7 = 35, × 80 % = 28.
    expect(estimateTask(clone)).toBe(28);
    expect(finalTaskPrice(clone, 99)).toBe(28);
    expect(estimateTask(taskPrice({ quotas, type: 1001, discountBp: 3_333, text: 'abc' }))).toBe(7);
  });

  it('charges nothing when the model has no block for its type', () => {
    const p = taskPrice({ quotas: {}, type: 1000, discountBp: 10_000, duration: 30 });
    expect(p.block).toBeNull();
    expect(estimateTask(p)).toBe(0);
    expect(finalTaskPrice(p, 30)).toBe(0);
    expect(estimateTask(taskPrice({ quotas, type: 1, discountBp: 10_000 }))).toBe(0);
  });

  it('defaults a block without a unit to per call', () => {
    const p = taskPrice({ quotas: { video_second_creation_quota: { fixed_quota: 5000 } }, type: 1002, discountBp: 10_000, duration: 600 });
    expect(p.unit).toBe('call');
    expect(estimateTask(p)).toBe(5000);
  });
});
