// Columns and search fields of the model list (docs/ORIGINAL-API.md §3.5: filters corp, name, model, type, group,
// remark, status, created_at). Status, actions and batch actions come from ResourceTable.
import { Space, Tag, Tooltip, Typography } from '@arco-design/web-react';
import { GROUP_PREFIX } from '@fastgate/core/entities/group';
import type { Model } from '@fastgate/core/entities/model';
import type { Locale } from '@fastgate/core/constants';
import { CorpSelect } from '../../components/CorpSelect';
import type { ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import { typeLabel } from '../../components/model-types';
import { ResourceSelect } from '../../components/ResourceSelect';
import type { FilterField } from '../../components/SearchForm';
import type { PageDict } from '../../locale';
import { PriceList } from '../../components/price/PriceList';
import type localeDict from './locale';

type Keys = typeof localeDict extends PageDict<infer K> ? K : never;
type T = (key: Keys, vars?: Record<string, string | number>) => string;

/** Names as tags, the first few shown and the rest in a tooltip. */
export function Names({ names, max = 3 }: { names: readonly string[]; max?: number }) {
  if (!names.length) return <Typography.Text type="secondary">-</Typography.Text>;
  const shown = names.slice(0, max);
  return (
    <Space size={4} wrap>
      {shown.map((n, i) => (
        <Tag key={`${n}-${i}`} size="small">
          {n}
        </Tag>
      ))}
      {names.length > max && (
        <Tooltip content={names.slice(max).join(', ')}>
          <Tag size="small">+{names.length - max}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}

export function OnOff({ on, t, names }: { on: boolean; t: T; names?: readonly string[] }) {
  const tag = (
    <Tag size="small" color={on ? 'green' : 'gray'}>
      {t(on ? 'model.on' : 'model.off')}
    </Tag>
  );
  return names?.length ? <Tooltip content={names.join(', ')}>{tag}</Tooltip> : tag;
}

export function modelColumns(t: T, lang: Locale, yesNo: (b: boolean) => string): ResourceColumn<Model>[] {
  return [
    { title: t('model.name'), dataIndex: 'name', width: 150, render: (name: string) => <Typography.Text bold>{name}</Typography.Text> },
    { title: t('model.model'), dataIndex: 'model', width: 160, render: (model: string) => <Typography.Text code>{model}</Typography.Text> },
    { title: t('model.corp'), dataIndex: 'corp_name', width: 110, defaultHidden: true, render: (name: string) => name || '-' },
    { title: t('model.type'), dataIndex: 'type', width: 100, defaultHidden: true, render: (type: number) => <Tag color="arcoblue">{typeLabel(type, lang)}</Tag> },
    { title: t('model.prices'), dataIndex: 'prices', width: 240, render: (_: unknown, row) => <PriceList model={row} testId={`prices-${row.id}`} /> },
    { title: t('model.groups'), dataIndex: 'group_names', width: 180, defaultHidden: true, render: (names: string[] = []) => <Names names={names} /> },
    { title: t('model.agents'), dataIndex: 'is_enable_model_agent', width: 100, defaultHidden: true, render: (on: boolean, row) => <OnOff on={on} t={t} names={row.model_agent_names} /> },
    {
      title: t('model.isPublic'),
      dataIndex: 'is_public',
      width: 80,
      defaultHidden: true,
      render: (on: boolean, row) => (
        <Tag size="small" color={on ? 'green' : 'gray'} data-testid={`public-${row.id}`}>
          {yesNo(on)}
        </Tag>
      ),
    },
    timeColumn(t('model.createdAt'), 'created_at'),
  ];
}

export function modelFilters(t: T, typeOptions: { label: string; value: number }[]): FilterField[] {
  return [
    { field: 'corp', kind: 'custom', label: t('model.corp'), render: () => <CorpSelect data-testid="filter-corp" /> },
    { field: 'name', kind: 'text', label: t('model.name') },
    { field: 'model', kind: 'text', label: t('model.model') },
    { field: 'type', kind: 'select', valueType: 'number', label: t('model.type'), options: typeOptions },
    {
      field: 'group',
      kind: 'custom',
      label: t('model.group'),
      render: () => <ResourceSelect<{ id: string; name: string }> prefix={GROUP_PREFIX} labelOf={(g) => g.name} placeholder={t('model.groups.placeholder')} data-testid="filter-group" />,
    },
    { field: 'remark', kind: 'text', label: t('model.remark') },
    { field: 'status', kind: 'status', label: t('model.status') },
    { field: 'created_at', kind: 'dateRange', label: t('model.createdAt') },
  ];
}
