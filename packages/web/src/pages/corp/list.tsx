// Corp list (docs/SPEC.md §2.2, admin): the generic resource table with the corp columns and filters.
import { useMemo } from 'react';
import { CORP_PREFIX, type Corp } from '@fastgate/core/entities/corp';
import { ResourceTable } from '../../components/ResourceTable';
import { useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { usePageLocale } from '../../locale';
import { corpColumns, corpFilters } from './columns';
import locale from './locale';

export default function CorpList() {
  const t = usePageLocale(locale);
  const filters = useMemo(() => corpFilters(t), [t]);
  const columns = useMemo(() => corpColumns(t), [t]);
  const page = useResourcePage<Corp>(CORP_PREFIX, filters);
  const title = useScreenTitle();
  return <ResourceTable page={page} title={title} columns={columns} routes={{ create: 'corp.create', update: 'corp.update' }} />;
}
