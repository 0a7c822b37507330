// Date range picker with the shortcuts of docs/SPEC.md §9 (today, 7, 15, 30 days). Values are the wire strings
// of docs/ORIGINAL-API.md §2.10: ["YYYY-MM-DD", "YYYY-MM-DD"], or full datetimes with `showTime` (log req_time).
import { DatePicker } from '@arco-design/web-react';
import type { RangePickerProps } from '@arco-design/web-react/es/DatePicker/interface';
import { serverNow } from '../lib/server-time';
import { useGlobalLocale } from '../locale';

const DATE_RANGE_DAYS = [7, 15, 30] as const;

export interface DateRangeProps extends Omit<RangePickerProps, 'value' | 'onChange' | 'shortcuts'> {
  value?: string[];
  onChange?: (value: string[] | undefined) => void;
}

export function DateRange({ value, onChange, showTime, style, ...rest }: DateRangeProps) {
  const { g } = useGlobalLocale();
  const format = showTime ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD';
  // Days are the server's days (its time zone), like the ranges the server applies.
  const range = (days: number) => () => [serverNow().subtract(days - 1, 'day').startOf('day'), serverNow().endOf('day')];
  const shortcuts = [
    { text: g('dateRange.today'), value: range(1) },
    ...DATE_RANGE_DAYS.map((days) => ({ text: g('dateRange.days', { days }), value: range(days) })),
  ];
  return (
    <DatePicker.RangePicker
      {...rest}
      style={{ width: '100%', ...style }}
      showTime={showTime}
      format={format}
      shortcuts={shortcuts}
      shortcutsPlacementLeft
      value={value?.length === 2 ? value : undefined}
      onChange={(strings) => onChange?.(strings?.length === 2 ? strings : undefined)}
    />
  );
}
