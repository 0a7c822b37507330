// Create and update of a plain resource in one form (refine's finefoods `action` prop): update mode
// loads `detail?id=` from the URL, submit posts create or update, success goes back to the list the user
// came from. Pages give the Form.Items as children and, where the wire differs from the inputs,
// `toValues` / `toBody`. A failed check scrolls its first error below the fixed navbar; a server field
// error (code 51) lands on its form item, named by the item's label.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Form, Message, Space, Spin, type FormInstance, type FormProps } from '@arco-design/web-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ErrorCode, TOAST_MS } from '@fastgate/core/constants';
import type { RouteName } from '@fastgate/core/routes';
import { fieldErrorOf, scrollBelow } from '../lib/form-errors';
import { NAVBAR_HEIGHT } from '../lib/layout';
import { backTo, routePath } from '../lib/navigation';
import { useSettingsStore } from '../stores/settings';
import { useFormLayout } from '../hooks/breakpoint';
import { useResourceDetail, useResourceMutation } from '../hooks/resource';
import { useGlobalLocale } from '../locale';
import { ApiError } from '../api/http';
import { recordProblem } from './record-state';
import { RecordUnavailable } from './RecordUnavailable';

export type FormMode = 'create' | 'update';

/** Height of an item's label row in the vertical layout (Arco: one line plus 8 px below it). */
const VERTICAL_LABEL_HEIGHT = 32;

/** The form shows server field errors on its items, so the HTTP client does not toast them with the API name. */
const FIELD_ERRORS_HERE = { formFieldErrors: true } as const;

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
  /** Horizontal on desktops, vertical on phones and tablets by default. */
  layout?: FormProps['layout'];
  /** Label column span (of 24), in the horizontal layout. */
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
  const { prefix, mode, listRoute, title, initialValues, toValues, toBody, children, labelSpan = 4, alsoInvalidate } = props;
  // Label over input on phones and tablets (hooks/breakpoint.ts) unless the page chose a layout.
  const responsive = useFormLayout();
  const layout = props.layout ?? responsive;
  const { g } = useGlobalLocale();
  const [own] = Form.useForm<Values>();
  const form = props.form ?? own;
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const id = mode === 'update' ? search.get('id') : null;
  const detail = useResourceDetail<Row>(prefix, id);
  const create = useResourceMutation(prefix, 'create', alsoInvalidate, FIELD_ERRORS_HERE);
  const update = useResourceMutation(prefix, 'update', alsoInvalidate, FIELD_ERRORS_HERE);
  const [error, setError] = useState<string>();
  const box = useRef<HTMLDivElement>(null);
  const navbar = useSettingsStore((s) => s.navbar);
  // Arco scrolls to the control: with the label above it (vertical layout) the label must clear the navbar too.
  const labelAbove = layout === 'vertical' ? VERTICAL_LABEL_HEIGHT : 0;
  const scroll = { block: 'start', scrollMode: 'always', behavior: scrollBelow((navbar ? NAVBAR_HEIGHT : 0) + 16 + labelAbove) } as const;
  const saving = create.isPending || update.isPending;
  // Update without a record to edit: an empty state with the way back instead of a form that could submit.
  const problem = mode === 'update' ? recordProblem(id, detail) : undefined;

  useEffect(() => {
    if (mode !== 'update' || !detail.data) return;
    form.resetFields();
    form.setFieldsValue((toValues ? toValues(detail.data) : detail.data) as Parameters<typeof form.setFieldsValue>[0]);
    // toValues is a render-time function of the page; the record is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode, detail.data, form]);

  const back = () => {
    navigate(backTo(location.state, routePath(listRoute)));
  };

  const submit = async (values: Values) => {
    if (problem) return;
    setError(undefined);
    const body = toBody ? toBody(values, mode) : values;
    try {
      const result = mode === 'create' ? await create.mutateAsync(body) : await update.mutateAsync({ ...body, id: id! });
      Message.success(g(mode === 'create' ? 'resource.created' : 'resource.updated'));
      if (props.onSaved) props.onSaved(result, mode, back);
      else back();
    } catch (e) {
      // The HTTP client toasted it already (a field error is ours to toast, with its label); keep it on
      // the form too, where the user is looking.
      const message = e instanceof ApiError || e instanceof Error ? e.message : String(e);
      const fieldError = e instanceof ApiError && e.code === ErrorCode.Validation && fieldErrorOf(message) !== undefined;
      const shown = (fieldError && showOnItem(message)) || message;
      if (fieldError) Message.error({ content: shown, duration: TOAST_MS });
      setError(shown);
    }
  };

  /** A field error of an item in this form: on the item, and the alert's text with its label; else undefined. */
  const showOnItem = (message: string): string | undefined => {
    const found = fieldErrorOf(message);
    const label = found && itemLabel(box.current, found.field);
    if (!found || label === undefined) return undefined;
    form.setFields({ [found.field]: { error: { message: found.detail } } } as Parameters<typeof form.setFields>[0]);
    // The server's name of a field this form renders (itemLabel found its element).
    form.scrollToField(found.field as keyof Values, scroll);
    return label ? g('common.labelled', { label, text: found.detail }) : found.detail;
  };

  return (
    <Card bordered={false} title={title} data-testid={`resource-form-${mode}`} ref={box}>
      {problem && <RecordUnavailable problem={problem} onBack={back} />}
      {error && <Alert type="error" content={error} closable onClose={() => setError(undefined)} style={{ marginBottom: 16 }} data-testid="form-error" />}
      {/* Without a record the form is hidden but stays mounted: the page's form instance and watchers are bound to it. */}
      <Spin loading={detail.isFetching} style={{ display: problem ? 'none' : 'block' }}>
        <Form<Values>
          form={form}
          layout={layout}
          labelCol={layout === 'horizontal' ? { span: labelSpan } : undefined}
          wrapperCol={layout === 'horizontal' ? { span: Math.min(24 - labelSpan, 14) } : undefined}
          initialValues={mode === 'create' ? initialValues : undefined}
          disabled={!!problem}
          onSubmit={(values) => void submit(values)}
          scrollToFirstError={scroll}
        >
          {children}
          {!problem && (
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
          )}
        </Form>
      </Spin>
    </Card>
  );
}

/** The label of the form item for `field` ('' when it has none), or undefined when the form has no such item. */
function itemLabel(root: HTMLElement | null, field: string): string | undefined {
  // Arco's element id of a field (Form getFormElementId): dots and brackets become underscores.
  const id = field.replace(/[[.]/g, '_').replace(/\]/g, '');
  const control = root?.querySelector(`[id="${CSS.escape(id)}"], [id="${CSS.escape(id)}_input"]`);
  if (!control) return undefined;
  const text = root?.querySelector(`label[for="${CSS.escape(id)}_input"]`)?.textContent ?? '';
  return text.trim().replace(/[:：]$/, '');
}
