// Inputs the model form's price blocks share: a $ / 1M tokens price (stored as ratio × 0.5), a fixed
// quota with its $ preview, and rules that check the value with the core schema of the stored field.
import { Form, InputNumber, Space, Typography } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { textQuotaSchema } from '@fastgate/core/entities/model-quota';
import { quotaField } from '@fastgate/core/schemas/usage-limits';
import { QuotaInput } from '../../components/QuotaInput';
import { required, schemaRule } from '../../components/rules';
import { usePageLocale } from '../../locale';
import locale from './locale';
import { priceToRatio } from '../../components/price/pricing';

const ratioField = textQuotaSchema.shape.prompt_ratio.unwrap();

/** Prices are checked as the ratio they become. */
export const priceRule = (message: string) => schemaRule(ratioField, message, (usd: number) => priceToRatio(usd));
export const quotaRule = (message: string) => schemaRule(quotaField, message);

interface PriceInputProps {
  value?: number;
  onChange?: (value: number | undefined) => void;
  'data-testid'?: string;
}

/** $ per 1M tokens, with the ratio it is saved as. */
function PriceInput({ value, onChange, ...rest }: PriceInputProps) {
  const t = usePageLocale(locale);
  return (
    <Space size={12}>
      <InputNumber
        {...rest}
        min={0}
        step={0.01}
        prefix="$"
        suffix={t('model.price.suffix')}
        style={{ width: 260 }}
        value={value}
        onChange={(v) => onChange?.(typeof v === 'number' && Number.isFinite(v) ? v : undefined)}
      />
      {typeof value === 'number' && (
        <Typography.Text type="secondary" data-testid={rest['data-testid'] ? `${rest['data-testid']}-ratio` : undefined}>
          {t('model.price.ratio', { ratio: priceToRatio(value) })}
        </Typography.Text>
      )}
    </Space>
  );
}

interface FieldProps {
  field: string;
  label: ReactNode;
  /** Empty is refused (0 is a price). */
  isRequired?: boolean;
  extra?: ReactNode;
  testId?: string;
}

export function PriceField({ field, label, isRequired, extra, testId }: FieldProps) {
  const t = usePageLocale(locale);
  const rules = [...(isRequired ? [required(t('model.price.required'))] : []), priceRule(t('model.invalid'))];
  return (
    <Form.Item label={label} field={field} rules={rules} extra={extra}>
      <PriceInput data-testid={testId} />
    </Form.Item>
  );
}

export function FixedQuotaField({ field, label, isRequired, extra, testId }: FieldProps) {
  const t = usePageLocale(locale);
  const rules = [...(isRequired ? [required(t('model.fixedQuota.required'))] : []), quotaRule(t('model.invalid'))];
  return (
    <Form.Item label={label} field={field} rules={rules} extra={extra}>
      <QuotaInput data-testid={testId} />
    </Form.Item>
  );
}

/** A titled sub-block inside a section (text vs audio prices of realtime models). */
export function SubTitle({ children }: { children: ReactNode }) {
  return (
    <Typography.Title heading={6} style={{ margin: '8px 0 16px' }}>
      {children}
    </Typography.Title>
  );
}
