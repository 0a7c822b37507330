// A model's prices in dollars, one line each ("提问 $3 / 1M tokens", a context tier's "(> 200K)"); with a
// discount below 1 the discounted price follows. Used by the model list, the detail and "my model".
import { Space, Typography } from '@arco-design/web-react';
import type { ModelQuotas } from '@fastgate/core/entities/model-quota';
import { usePageLocale } from '../../locale';
import locale from './locale';
import { discounted, formatDollars, formatTokens, priceLines } from './pricing';

export interface PriceListProps {
  model: ModelQuotas & { type: number; corp_code?: string };
  /** Group discount as a fraction (1 = full price). */
  discount?: number;
  testId?: string;
}

export function PriceList({ model, discount = 1, testId }: PriceListProps) {
  const t = usePageLocale(locale);
  const lines = priceLines(model);
  if (!lines.length) return <Typography.Text type="secondary">-</Typography.Text>;
  const after = discount < 1 ? discounted(lines, discount) : undefined;
  return (
    <Space direction="vertical" size={0} data-testid={testId}>
      {lines.map((line, i) => (
        <span key={`${line.label}-${i}`} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
          <Typography.Text type="secondary">{t(`model.price.${line.label}`)}</Typography.Text>
          {line.detail ? <Typography.Text type="secondary"> ({line.detail})</Typography.Text> : null}
          {line.above ? <Typography.Text type="secondary"> ({t('model.price.above', { tokens: formatTokens(line.above) })})</Typography.Text> : null}{' '}
          <Typography.Text delete={!!after}>{formatDollars(line.usd)}</Typography.Text>
          {after && <Typography.Text style={{ color: 'rgb(var(--green-6))' }}> {formatDollars(after[i]!.usd)}</Typography.Text>}{' '}
          <Typography.Text type="secondary">{t(`model.per.${line.per}`)}</Typography.Text>
          {line.more ? <Typography.Text type="secondary"> {t('model.price.more', { count: line.more })}</Typography.Text> : null}
        </span>
      ))}
    </Space>
  );
}
