// docs/SPEC.md §9 / docs/ORIGINAL-API.md §5.9: quota is entered in integer units with a live dollar preview (500000 = $1).
import { InputNumber, Space, Tooltip, type InputNumberProps } from '@arco-design/web-react';
import { formatUsd } from '@fastgate/core/money';
import { useGlobalLocale } from '../locale';

export interface QuotaInputProps extends Omit<InputNumberProps, 'value' | 'onChange' | 'precision'> {
  value?: number;
  onChange?: (value: number | undefined) => void;
}

export function QuotaInput({ value, onChange, min = 0, style, ...rest }: QuotaInputProps) {
  const { g } = useGlobalLocale();
  return (
    <Space size={12}>
      <InputNumber
        {...rest}
        min={min}
        precision={0}
        step={500_000}
        style={{ width: 220, ...style }}
        value={value}
        onChange={(v) => onChange?.(typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : undefined)}
      />
      <Tooltip content={g('quota.hint')}>
        <span data-testid="quota-preview" style={{ color: 'rgb(var(--green-6))', fontVariantNumeric: 'tabular-nums' }}>
          {formatUsd(value ?? 0)}
        </span>
      </Tooltip>
    </Space>
  );
}
