// Real-name certification (docs/SPEC.md §2.4): the records (view, withdraw while auditing) and a request form
// when no record is auditing or passed.
import { useState } from 'react';
import { Button, Descriptions, Drawer, Form, Input, Message, Popconfirm, Select, Space, Table, Tag, type TableColumnProps } from '@arco-design/web-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CertStatus } from '@fastgate/core/constants';
import { certificationCreateSchema, type Certification as Cert } from '@fastgate/core/schemas/user-center';
import { PAGE_SIZES } from '@fastgate/core/api';
import { certificationApi, type CertificationCreate } from '../../../api/user';
import { required, zodRule } from '../../../components/rules';
import { usePageLocale } from '../../../locale';
import locale from './locale';
import styles from './center.module.css';
import { useFormLayout } from '../../../hooks/breakpoint';

const STATUS_COLOR: Record<number, string> = {
  [CertStatus.Passed]: 'green',
  [CertStatus.Auditing]: 'arcoblue',
  [CertStatus.Withdrawn]: 'gray',
  [CertStatus.Rejected]: 'red',
};
const ID_TYPES = ['id_card', 'passport', 'other'] as const;
const KEY = ['user', 'certification'] as const;

function useCertLocale() {
  const t = usePageLocale(locale);
  const statusTag = (status: number) => (
    <Tag color={STATUS_COLOR[status]} data-testid={`cert-status-${status}`}>
      {status >= 1 && status <= 4 ? t(`cert.status.${status as 1 | 2 | 3 | 4}`) : String(status)}
    </Tag>
  );
  const idType = (type: string) => ((ID_TYPES as readonly string[]).includes(type) ? t(`cert.idType.${type as (typeof ID_TYPES)[number]}`) : type);
  return { t, statusTag, idType };
}

function CertDetail({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t, statusTag, idType } = useCertLocale();
  const { data, isLoading } = useQuery({ queryKey: [...KEY, 'detail', id], queryFn: () => certificationApi.detail(id ?? ''), enabled: id !== null });
  return (
    <Drawer width={420} title={t('cert.detail')} visible={id !== null} onCancel={onClose} footer={null} data-testid="cert-detail">
      {!isLoading && data && (
        <Descriptions
          column={1}
          labelStyle={{ width: 100 }}
          data={[
            { label: t('cert.realName'), value: data.real_name },
            { label: t('cert.idType'), value: idType(data.id_type) },
            { label: t('cert.idNumber'), value: data.id_number },
            { label: t('cert.status'), value: statusTag(data.status) },
            { label: t('cert.remark'), value: data.remark || '-' },
            { label: t('cert.createdAt'), value: data.created_at },
            { label: t('cert.updatedAt'), value: data.updated_at || '-' },
          ]}
        />
      )}
    </Drawer>
  );
}

const createRules = certificationCreateSchema.shape;

function CertForm({ onDone }: { onDone: () => void }) {
  const formLayout = useFormLayout();
  const { t } = useCertLocale();
  const [form] = Form.useForm<CertificationCreate>();
  const create = useMutation({ mutationFn: (body: CertificationCreate) => certificationApi.create(body), onSuccess: onDone });
  const submit = (values: CertificationCreate) =>
    create.mutate(values, {
      onSuccess: () => {
        Message.success(t('cert.submitted'));
        form.resetFields();
      },
    });
  return (
    <Form
      form={form}
      className={styles.form}
      layout={formLayout}
      labelCol={{ span: 5 }}
      wrapperCol={{ span: 19 }}
      initialValues={{ id_type: 'id_card' }}
      onSubmit={submit}
      data-testid="cert-form"
    >
      <Form.Item label={t('cert.realName')} field="real_name" rules={[required(t('cert.realName.required')), { minLength: 2, maxLength: 30, message: t('cert.realName.required') }]}>
        <Input maxLength={30} data-testid="cert-real-name" />
      </Form.Item>
      <Form.Item label={t('cert.idType')} field="id_type">
        <Select options={ID_TYPES.map((value) => ({ value, label: t(`cert.idType.${value}`) }))} data-testid="cert-id-type" />
      </Form.Item>
      <Form.Item label={t('cert.idNumber')} field="id_number" rules={[required(t('cert.idNumber.required')), zodRule(createRules.id_number)]}>
        <Input maxLength={30} data-testid="cert-id-number" />
      </Form.Item>
      <Form.Item label={t('cert.remark')} field="remark">
        <Input.TextArea maxLength={200} showWordLimit data-testid="cert-remark" />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 5 }}>
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="cert-submit">
          {t('cert.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}

export function Certification() {
  const { t, statusTag, idType } = useCertLocale();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState({ current: 1, pageSize: PAGE_SIZES[0] as number });
  const [viewing, setViewing] = useState<string | null>(null);
  const { data, isFetching } = useQuery({
    queryKey: [...KEY, 'page', paging],
    queryFn: () => certificationApi.page(paging),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const withdraw = useMutation({
    mutationFn: certificationApi.withdraw,
    onSuccess: () => {
      Message.success(t('cert.withdrawn'));
      void refresh();
    },
  });

  const items = data?.items ?? [];
  const locked = items.some((c) => c.status === CertStatus.Auditing || c.status === CertStatus.Passed);

  const columns: TableColumnProps<Cert>[] = [
    { title: t('cert.realName'), dataIndex: 'real_name' },
    { title: t('cert.idType'), dataIndex: 'id_type', render: (value: string) => idType(value) },
    { title: t('cert.idNumber'), dataIndex: 'id_number' },
    { title: t('cert.status'), dataIndex: 'status', render: (value: number) => statusTag(value) },
    { title: t('cert.createdAt'), dataIndex: 'created_at' },
    {
      title: t('cert.actions'),
      dataIndex: 'id',
      render: (_: unknown, row: Cert) => (
        <Space>
          <Button type="text" size="small" onClick={() => setViewing(row.id)} data-testid={`cert-view-${row.id}`}>
            {t('cert.view')}
          </Button>
          {row.status === CertStatus.Auditing && (
            <Popconfirm title={t('cert.withdraw.confirm')} onOk={() => withdraw.mutate(row.id)}>
              <Button type="text" size="small" status="warning" loading={withdraw.isPending} data-testid={`cert-withdraw-${row.id}`}>
                {t('cert.withdraw')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="cert-panel">
      <h4 className={styles.sectionTitle}>{t('cert.records')}</h4>
      <Table
        rowKey="id"
        loading={isFetching}
        columns={columns}
        data={items}
        pagination={{
          current: paging.current,
          pageSize: paging.pageSize,
          total: data?.paging?.total ?? 0,
          hideOnSinglePage: true,
          onChange: (current, pageSize) => setPaging({ current, pageSize }),
        }}
        data-testid="cert-table"
      />
      <h4 className={styles.sectionTitle} style={{ marginTop: 24 }}>
        {t('cert.apply')}
      </h4>
      {locked ? <p className={styles.sectionDesc}>{t('cert.locked')}</p> : <CertForm onDone={() => void refresh()} />}
      <CertDetail id={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
