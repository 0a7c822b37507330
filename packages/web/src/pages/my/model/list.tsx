// "My model" (docs/SPEC.md §2.2, reseller and user): the models this account may call — `POST /model/page` returns
// only those for R/U — with dollar prices, the group it is billed through and that group's discount.
import { useMemo } from 'react';
import { Tag, Tooltip, Typography } from '@arco-design/web-react';
import { IconQuestionCircle } from '@arco-design/web-react/icon';
import { MODEL_PREFIX, type MyModel } from '@fastgate/core/entities/model';
import { CorpSelect } from '../../../components/CorpSelect';
import { ResourceTable, type ResourceColumn } from '../../../components/ResourceTable';
import type { FilterField } from '../../../components/SearchForm';
import { useResourcePage } from '../../../hooks/resource';
import { useScreenTitle } from '../../../hooks/screen-title';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import { typeLabel, useTypeOptions } from '../../../components/model-types';
import { PriceList } from '../../../components/price/PriceList';
import locale from './locale';

/** 0.8 → "80%" (docs/ORIGINAL-API.md §2.10: discounts arrive as fractions). */
const percent = (discount: number) => Number((discount * 100).toFixed(2));

export default function MyModelList() {
  const t = usePageLocale(locale);
  const { locale: lang } = useGlobalLocale();
  const typeOptions = useTypeOptions();
  const filters = useMemo<FilterField[]>(
    () => [
      { field: 'name', kind: 'text', label: t('myModel.name') },
      { field: 'type', kind: 'select', valueType: 'number', label: t('myModel.type'), options: typeOptions },
      { field: 'corp', kind: 'custom', label: t('myModel.corp'), render: () => <CorpSelect data-testid="filter-corp" /> },
    ],
    [t, typeOptions],
  );
  const columns = useMemo<ResourceColumn<MyModel>[]>(
    () => [
      { title: t('myModel.name'), dataIndex: 'name', width: 150, render: (name: string) => <Typography.Text bold>{name}</Typography.Text> },
      { title: t('myModel.model'), dataIndex: 'model', width: 160, render: (model: string) => <Typography.Text code>{model}</Typography.Text> },
      { title: t('myModel.corp'), dataIndex: 'corp_name', width: 110, render: (name: string) => name || '-' },
      { title: t('myModel.type'), dataIndex: 'type', width: 100, render: (type: number) => <Tag color="arcoblue">{typeLabel(type, lang)}</Tag> },
      {
        title: (
          <Tooltip content={t('myModel.prices.tip')}>
            <span>
              {t('myModel.prices')} <IconQuestionCircle />
            </span>
          </Tooltip>
        ),
        dataIndex: 'prices',
        width: 240,
        render: (_: unknown, row) => <PriceList model={row} discount={row.discount} testId={`prices-${row.id}`} />,
      },
      { title: t('myModel.group'), dataIndex: 'group_name', width: 110, render: (name: string) => name || '-' },
      {
        title: t('myModel.discount'),
        dataIndex: 'discount',
        width: 80,
        render: (discount: number, row) =>
          discount < 1 ? (
            <Tag color="green" data-testid={`discount-${row.id}`}>
              {t('myModel.percent', { percent: percent(discount) })}
            </Tag>
          ) : (
            <Typography.Text type="secondary" data-testid={`discount-${row.id}`}>
              {t('myModel.fullPrice')}
            </Typography.Text>
          ),
      },
    ],
    [t, lang],
  );
  const page = useResourcePage<MyModel>(MODEL_PREFIX, filters);
  const title = useScreenTitle();
  return <ResourceTable page={page} title={title} columns={columns} statusColumn={false} deletable={false} batch={false} />;
}
