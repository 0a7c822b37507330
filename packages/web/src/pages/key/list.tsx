// Model key list (docs/SPEC.md §2.2 "model key list", admin): `/key/page` with `type: 2` fixed. Besides the
// selection's batch actions, the toolbar applies status or delete to every key matching the applied
// filter (`all-status` / `all-delete`, docs/ORIGINAL-API.md §2.8), confirmed with the matching count. Each row
// shows its key's circuit breaker and can test the key with one real request (issue 13).
import { useMemo } from 'react';
import { Button, Dropdown, Menu, Message, Modal } from '@arco-design/web-react';
import { IconDown } from '@arco-design/web-react/icon';
import { Status } from '@fastgate/core/constants';
import { MODEL_AGENT_PREFIX } from '@fastgate/core/entities/model-agent';
import { KEY_PREFIX, KeyType, type ModelKey } from '@fastgate/core/entities/provider-key';
import { ResourceTable } from '../../components/ResourceTable';
import { useResourceMutation, useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { useBreakers, useKeyTest } from '../../components/health/breakers';
import { keyColumns, keyFilters } from './columns';
import locale from './locale';

const FIXED = { type: KeyType.Model };

type AllAction = 'enable' | 'disable' | 'delete';

export default function KeyList() {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const filters = useMemo(() => keyFilters(t), [t]);
  const page = useResourcePage<ModelKey>(KEY_PREFIX, filters, FIXED);
  const title = useScreenTitle();
  const health = useBreakers(page.rows.map((r) => r.id));
  const columns = useMemo(() => keyColumns(t, health), [t, health]);
  const test = useKeyTest();
  // Agents show their key counts.
  const batch = useResourceMutation(KEY_PREFIX, 'batch', [MODEL_AGENT_PREFIX]);

  const runAll = (action: AllAction) => {
    const count = page.total;
    Modal.confirm({
      title: t('key.all.title'),
      content: t(`key.all.${action}.confirm`, { count }),
      okButtonProps: { status: action === 'delete' ? 'danger' : 'default' },
      onOk: async () => {
        // The applied filter (the URL's), not what may be typed but not yet searched.
        const filter = { ...page.values, ...FIXED };
        try {
          if (action === 'delete') await batch.mutateAsync({ action: 'all-delete', ids: [], ...filter });
          else await batch.mutateAsync({ action: 'all-status', ids: [], value: action === 'enable' ? Status.Normal : Status.Disabled, ...filter });
          Message.success(g('common.success'));
        } catch {
          // Shown by the HTTP client.
        }
      },
    });
  };

  const toolbar = (
    <Dropdown
      trigger="click"
      disabled={page.total === 0}
      droplist={
        <Menu onClickMenuItem={(key) => runAll(key as AllAction)}>
          <Menu.Item key="enable" data-testid="key-all-enable">
            {t('key.all.enable')}
          </Menu.Item>
          <Menu.Item key="disable" data-testid="key-all-disable">
            {t('key.all.disable')}
          </Menu.Item>
          <Menu.Item key="delete" data-testid="key-all-delete">
            <span style={{ color: 'rgb(var(--danger-6))' }}>{t('key.all.delete')}</span>
          </Menu.Item>
        </Menu>
      }
    >
      <Button loading={batch.isPending} data-testid="key-all-actions">
        {t('key.all.title')} <IconDown />
      </Button>
    </Dropdown>
  );

  const testAction = { key: 'test', label: t('key.test'), onClick: (row: ModelKey) => test.mutate(row.id) };
  return <ResourceTable page={page} title={title} columns={columns} routes={{ create: 'key.create', update: 'key.update' }} rowActions={[testAction]} toolbar={toolbar} alsoInvalidate={[MODEL_AGENT_PREFIX]} />;
}
