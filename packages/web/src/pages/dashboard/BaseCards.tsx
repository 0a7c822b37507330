// The base-data cards (docs/ORIGINAL-API.md §1.4 `GET /dashboard/base/data`), refreshed every 180 s; which counts a
// role sees is in roles.ts.
import type { ReactElement } from 'react';
import { Card, Skeleton, Typography } from '@arco-design/web-react';
import { IconApps, IconCode, IconFire, IconLock, IconRobot, IconThunderbolt, IconUser, IconUserAdd, IconUserGroup } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import type { BaseData } from '@fastgate/core/entities/dashboard';
import { useUserStore } from '../../stores/user';
import { usePageLocale } from '../../locale';
import { dashboardApi, dashboardKeys } from './api';
import locale from './locale';
import { baseFieldsFor } from './roles';
import styles from './workplace.module.css';

const BASE_DATA_REFRESH_MS = 180_000;

/** Icon and Arco colour of each card: the icon sits on the colour's shade 1 in its shade 6. */
const LOOK: Record<keyof BaseData, { icon: () => ReactElement; color: string }> = {
  app: { icon: () => <IconApps />, color: 'arcoblue' },
  today_app: { icon: () => <IconFire />, color: 'orange' },
  model: { icon: () => <IconRobot />, color: 'purple' },
  app_key: { icon: () => <IconCode />, color: 'cyan' },
  model_key: { icon: () => <IconLock />, color: 'magenta' },
  user: { icon: () => <IconUser />, color: 'green' },
  today_user: { icon: () => <IconUserAdd />, color: 'lime' },
  call: { icon: () => <IconThunderbolt />, color: 'gold' },
  group: { icon: () => <IconUserGroup />, color: 'pinkpurple' },
};

export function BaseCards() {
  const t = usePageLocale(locale);
  const role = useUserStore((s) => s.role);
  const info = useUserStore((s) => s.info);
  const base = useQuery({ queryKey: dashboardKeys.baseData, queryFn: dashboardApi.baseData, refetchInterval: BASE_DATA_REFRESH_MS, staleTime: 0 });
  return (
    <Card bordered={false} data-testid="workplace-overview">
      <Typography.Title heading={5} className={styles.welcome}>
        {t('workplace.welcome', { name: info?.name || info?.account || '' })}
      </Typography.Title>
      <Typography.Text type="secondary">{t(`workplace.welcome.${role ?? 'user'}`)}</Typography.Text>
      <div className={styles.stats}>
        {baseFieldsFor(role).map((field) => (
          <div key={field} className={styles.stat} data-testid={`base-${field}`}>
            <div className={styles.statIcon} style={{ background: `rgb(var(--${LOOK[field].color}-1))`, color: `rgb(var(--${LOOK[field].color}-6))` }}>
              {LOOK[field].icon()}
            </div>
            <div>
              <div className={styles.statTitle}>{t(`workplace.base.${field}`)}</div>
              <Skeleton loading={base.isLoading} text={{ rows: 1, width: 60 }} animation>
                <div className={styles.statValue} data-testid={`base-${field}-value`}>
                  {(base.data?.[field] ?? 0).toLocaleString()}
                </div>
              </Skeleton>
            </div>
          </div>
        ))}
      </div>
    </Card>
  );
}
