// docs/SPEC.md §4.6: keys and agents are auto-disabled after repeated errors; lists and details show it the same way.
import { Tag, Tooltip, Typography } from '@arco-design/web-react';
import { usePageLocale } from '../../locale';
import locale from './locale';

/** "Auto-disabled" as a red tag whose tooltip gives the recorded reason; "no" when not. */
export function AutoDisabledTag({ disabled, reason, testId }: { disabled: boolean; reason: string | undefined; testId?: string }) {
  const t = usePageLocale(locale);
  if (!disabled) return <Typography.Text type="secondary">{t('health.autoDisabled.no')}</Typography.Text>;
  return (
    <Tooltip content={reason ? t('health.autoDisabled.reason', { reason }) : t('health.autoDisabled.noReason')}>
      <Tag color="red" size="small" data-testid={testId}>
        {t('health.autoDisabled.yes')}
      </Tag>
    </Tooltip>
  );
}
