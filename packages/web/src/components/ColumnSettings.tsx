// The table toolbar's column settings (issue 15): a checkbox per column, the row density and a reset, in a
// popover beside refresh. The first column and the actions never hide (a row must stay recognisable and
// actionable); the caller keeps the choice per screen.
import type { ReactNode } from 'react';
import { Button, Checkbox, Divider, Popover, Radio, Space, Tooltip, Typography } from '@arco-design/web-react';
import { IconSettings } from '@arco-design/web-react/icon';
import { DENSITIES, DEFAULT_PREFS, isShown, toggleColumn, type TablePrefs } from '../lib/table-prefs';
import { useGlobalLocale } from '../locale';

export interface SettingsColumn {
  key: string;
  title: ReactNode;
  defaultHidden?: boolean;
  /** Always shown: no checkbox to clear. */
  locked?: boolean;
}

export function ColumnSettings({ columns, prefs, onChange }: { columns: SettingsColumn[]; prefs: TablePrefs; onChange: (prefs: TablePrefs) => void }) {
  const { g } = useGlobalLocale();
  const content = (
    <div style={{ width: 240 }} data-testid="column-settings-popover">
      <Typography.Text type="secondary">{g('table.columns')}</Typography.Text>
      <Space direction="vertical" size={4} style={{ display: 'flex', marginTop: 8, maxHeight: 320, overflowY: 'auto' }}>
        {columns.map((col) => (
          <Checkbox
            key={col.key}
            checked={col.locked || isShown(prefs, col.key, col.defaultHidden)}
            disabled={col.locked}
            onChange={(shown: boolean) => onChange(toggleColumn(prefs, col.key, shown, col.defaultHidden))}
            data-testid={`column-toggle-${col.key}`}
          >
            {col.title}
          </Checkbox>
        ))}
      </Space>
      <Divider style={{ margin: '12px 0' }} />
      <Typography.Text type="secondary">{g('table.density')}</Typography.Text>
      <Radio.Group
        type="button"
        size="small"
        style={{ display: 'flex', marginTop: 8 }}
        value={prefs.density}
        onChange={(density: TablePrefs['density']) => onChange({ ...prefs, density })}
        data-testid="column-density"
      >
        {DENSITIES.map((d) => (
          <Radio key={d} value={d} data-testid={`density-${d}`}>
            {g(`table.density.${d}`)}
          </Radio>
        ))}
      </Radio.Group>
      <Divider style={{ margin: '12px 0' }} />
      <Button size="small" long onClick={() => onChange(DEFAULT_PREFS)} data-testid="column-settings-reset">
        {g('table.reset')}
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" position="lt" content={content}>
      <Tooltip content={g('table.settings')}>
        <Button shape="circle" icon={<IconSettings />} aria-label={g('table.settings')} data-testid="column-settings" />
      </Tooltip>
    </Popover>
  );
}
