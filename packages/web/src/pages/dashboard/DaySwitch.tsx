// The day windows of the workplace (docs/SPEC.md §9: today, 7, 15, 30 days): a button group, or a small select
// where a narrow card has no room for four buttons.
import { Radio, Select } from '@arco-design/web-react';
import { useGlobalLocale } from '../../locale';

export interface DaySwitchProps {
  days: readonly number[];
  value: number;
  onChange: (days: number) => void;
  testId: string;
  compact?: boolean;
}

export function DaySwitch({ days, value, onChange, testId, compact }: DaySwitchProps) {
  const { g } = useGlobalLocale();
  const label = (d: number) => (d === 1 ? g('dateRange.today') : g('dateRange.days', { days: d }));
  if (compact) {
    return <Select size="small" value={value} onChange={(v: number) => onChange(v)} options={days.map((d) => ({ value: d, label: label(d) }))} style={{ width: 130 }} data-testid={testId} />;
  }
  return (
    <Radio.Group type="button" size="small" value={value} onChange={(v: number) => onChange(v)} data-testid={testId}>
      {days.map((d) => (
        <Radio key={d} value={d} data-testid={`${testId}-${d}`}>
          {label(d)}
        </Radio>
      ))}
    </Radio.Group>
  );
}
