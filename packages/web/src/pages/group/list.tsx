// Group list (docs/SPEC.md §2.2, admin and reseller). An admin manages every group; a reseller only its own
// (`owned: true`: without it the page also lists the admin groups the reseller may use, which it
// cannot edit). The expiry can be changed from the row (`change/expire`).
import { useMemo, useState } from 'react';
import { DatePicker, Form, Message, Modal } from '@arco-design/web-react';
import { GROUP_PREFIX, type Group } from '@fastgate/core/entities/group';
import { MODEL_PREFIX } from '@fastgate/core/entities/model';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { ResourceTable } from '../../components/ResourceTable';
import { useResourceMutation, useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { groupColumns, groupFilters } from './columns';
import locale from './locale';

const OWNED = { owned: true };

function ExpireModal({ group, onClose }: { group: Group | null; onClose: () => void }) {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const [value, setValue] = useState<string | undefined>();
  const change = useResourceMutation(GROUP_PREFIX, 'change/expire');
  return (
    <Modal
      title={t('group.changeExpire.title')}
      visible={group !== null}
      onCancel={onClose}
      afterOpen={() => setValue(group?.expires_at || undefined)}
      confirmLoading={change.isPending}
      onOk={async () => {
        try {
          await change.mutateAsync({ id: group!.id, expires_at: value ?? '' });
          Message.success(g('common.success'));
          onClose();
        } catch {
          // Shown by the HTTP client.
        }
      }}
      data-testid="group-expire-modal"
    >
      <Form.Item label={group?.name} extra={t('group.changeExpire.extra')} layout="vertical">
        <DatePicker
          showTime
          format="YYYY-MM-DD HH:mm:ss"
          style={{ width: '100%' }}
          value={value}
          onChange={(text: string) => setValue(text || undefined)}
          placeholder={t('group.expiresAt.placeholder')}
          data-testid="group-expire-input"
        />
      </Form.Item>
    </Modal>
  );
}

export default function GroupList() {
  const t = usePageLocale(locale);
  const admin = usePermission(ADMIN_ONLY);
  const filters = useMemo(() => groupFilters(t, admin), [t, admin]);
  const columns = useMemo(() => groupColumns(t), [t]);
  const page = useResourcePage<Group>(GROUP_PREFIX, filters, admin ? undefined : OWNED);
  const title = useScreenTitle();
  const [expiring, setExpiring] = useState<Group | null>(null);
  return (
    <>
      <ResourceTable
        page={page}
        title={title}
        columns={columns}
        routes={{ create: 'group.create', update: 'group.update' }}
        rowActions={[{ key: 'expire', label: t('group.changeExpire'), onClick: setExpiring }]}
        // "My model" shows the discount of the model's group.
        alsoInvalidate={[MODEL_PREFIX]}
      />
      <ExpireModal group={expiring} onClose={() => setExpiring(null)} />
    </>
  );
}
