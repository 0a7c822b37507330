// Columns and search fields of the corp list (docs/ORIGINAL-API.md §3.7). Status and actions come from ResourceTable.
import { Tag, Typography } from '@arco-design/web-react';
import { CORP_CODES, CORP_PREFIX, type Corp } from '@fastgate/core/entities/corp';
import { PublicSwitch } from '../../components/StatusSwitch';
import type { ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import type { FilterField } from '../../components/SearchForm';

type T = (key: 'corp.name' | 'corp.code' | 'corp.sort' | 'corp.isPublic' | 'corp.remark' | 'corp.status' | 'corp.updatedAt') => string;

export function corpColumns(t: T): ResourceColumn<Corp>[] {
  return [
    { title: t('corp.name'), dataIndex: 'name', width: 180, render: (name: string) => <Typography.Text bold>{name}</Typography.Text> },
    { title: t('corp.code'), dataIndex: 'code', width: 140, render: (code: string) => <Tag color="arcoblue">{code}</Tag> },
    { title: t('corp.sort'), dataIndex: 'sort', width: 80, defaultHidden: true },
    { title: t('corp.isPublic'), dataIndex: 'is_public', width: 100, render: (value: boolean, row) => <PublicSwitch prefix={CORP_PREFIX} id={row.id} value={value} /> },
    { title: t('corp.remark'), dataIndex: 'remark', width: 180, defaultHidden: true, ellipsis: true, render: (remark: string) => remark || '-' },
    timeColumn(t('corp.updatedAt'), 'updated_at'),
  ];
}

export function corpFilters(t: T): FilterField[] {
  return [
    { field: 'name', kind: 'text', label: t('corp.name') },
    { field: 'code', kind: 'select', allowCreate: true, label: t('corp.code'), options: CORP_CODES.map((code) => ({ label: code, value: code })) },
    { field: 'is_public', kind: 'bool', label: t('corp.isPublic') },
    { field: 'remark', kind: 'text', label: t('corp.remark') },
    { field: 'status', kind: 'status', label: t('corp.status') },
    { field: 'updated_at', kind: 'dateRange', label: t('corp.updatedAt') },
  ];
}
