// A date-time column ("2026-11-24 12:18:33") that wraps between date and time rather than inside a number,
// so lists keep their times in half the width of one line.
import type { ResourceColumn } from './ResourceTable';

export function timeColumn<Row>(title: string, dataIndex: string, extra: Partial<ResourceColumn<Row>> = {}): ResourceColumn<Row> {
  return {
    title,
    dataIndex,
    width: 110,
    render: (value: string) => (value ? <span style={{ wordBreak: 'keep-all' }}>{value}</span> : '-'),
    ...extra,
  };
}
