// Create and update of a plain resource in one form (refine's finefoods `action` prop): update mode
// loads `detail?id=` from the URL, submit posts create or update, success goes back to the list the user
// came from. Pages give the Form.Items as children and, where the wire differs from the inputs,
// `toValues` / `toBody`.
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Form, Message, Space, Spin, type FormInstance, type FormProps } from '@arco-design/web-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { RouteName } from '@fastgate/core/routes';
import { routePath } from '../lib/navigation';
import { useResourceDetail, useResourceMutation } from '../hooks/resource';
import { useGlobalLocale } from '../locale';
import { ApiError } from '../api/http';

export type FormMode = 'create' | 'update';

export interface ResourceFormProps<Row, Values extends object> {
  prefix: string;
  mode: FormMode;
  /** Route name of the list: where success and Cancel lead when the form was not opened from it. */
  listRoute: RouteName;
  title?: ReactNode;
  /** Create-mode starting values. */
  initialValues?: Partial<Values>;
  /** Detail row → form values (arrays → newline text, ratios → prices, …); the row itself by default. */
  toValues?: (row: Row) => Partial<Values>;
  /** Form values → request body (the id is added in update mode). */
  toBody?: (values: Values, mode: FormMode) => object;
  /** Pass one from `Form.useForm()` to watch fields in the page. */
  form?: FormInstance<Values>;
  children: ReactNode;
  layout?: FormProps['layout'];
  /** Label column span (of 24). */
  labelSpan?: number;
  /** Other prefixes to refresh after the write. */
  alsoInvalidate?: readonly string[];
  /**
   * Receives the server's answer instead of the form going back to the list at once; call `back()` to
   * leave (e.g. after showing a secret the answer carries).
   */
  onSaved?: (result: unknown, mode: FormMode, back: () => void) => void;
}

export function ResourceForm<Row, Values extends object>(props: ResourceFormProps<Row, Values>) {
  const { prefix, mode, listRoute, title, initialValues, toValues, toBody, children, layout = 'horizontal', labelSpan = 4, alsoInvalidate } = props;
  const { g } = useGlobalLocale();
  const [own] = Form.useForm<Values>();
  const form = props.form ?? own;
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const id = mode === 'update' ? search.get('id') : null;
  const detail = useResourceDetail<Row>(prefix, id);
  const create = useResourceMutation(prefix, 'create', alsoInvalidate);
  const update = useResourceMutation(prefix, 'update', alsoInvalidate);
  const [error, setError] = useState<string>();
  const saving = create.isPending || update.isPending;

  useEffect(() => {
    if (mode !== 'update' || !detail.data) return;
    form.resetFields();
    form.setFieldsValue((toValues ? toValues(detail.data) : detail.data) as Parameters<typeof form.setFieldsValue>[0]);
    // toValues is a render-time function of the page; the record is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode, detail.data, form]);

  const back = () => {
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from ?? routePath(listRoute));
  };

  const submit = async (values: Values) => {
    setError(undefined);
    const body = toBody ? toBody(values, mode) : values;
    try {
      const result = mode === 'create' ? await create.mutateAsync(body) : await update.mutateAsync({ ...body, id: id! });
      Message.success(g(mode === 'create' ? 'resource.created' : 'resource.updated'));
      if (props.onSaved) props.onSaved(result, mode, back);
      else back();
    } catch (e) {
      // The HTTP client toasted it already; keep it on the form too, where the user is looking.
      setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    }
  };

  const missing = mode === 'update' && !id;
  return (
    <Card bordered={false} title={title} data-testid={`resource-form-${mode}`}>
      {missing && <Alert type="warning" content={g('resource.missingId')} style={{ marginBottom: 16 }} />}
      {detail.isError && <Alert type="error" content={g('resource.loadFailed')} style={{ marginBottom: 16 }} />}
      {error && <Alert type="error" content={error} closable onClose={() => setError(undefined)} style={{ marginBottom: 16 }} data-testid="form-error" />}
      <Spin loading={detail.isFetching} style={{ display: 'block' }}>
        <Form<Values>
          form={form}
          layout={layout}
          labelCol={layout === 'horizontal' ? { span: labelSpan } : undefined}
          wrapperCol={layout === 'horizontal' ? { span: Math.min(24 - labelSpan, 14) } : undefined}
          initialValues={mode === 'create' ? initialValues : undefined}
          disabled={missing || detail.isError}
          onSubmit={(values) => void submit(values)}
          scrollToFirstError
        >
          {children}
          <Form.Item wrapperCol={layout === 'horizontal' ? { offset: labelSpan } : undefined}>
            <Space>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="form-submit">
                {g('common.submit')}
              </Button>
              <Button onClick={back} data-testid="form-cancel">
                {g('common.cancel')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Spin>
    </Card>
  );
}
