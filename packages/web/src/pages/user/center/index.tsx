// User center (docs/SPEC.md §2.4): a header card, then basic information, security settings and certification.
import { Avatar, Card, Space, Tabs, Tag, Typography } from '@arco-design/web-react';
import { useSearchParams } from 'react-router';
import { useSite } from '../../../lib/site';
import { useGlobalLocale, usePageLocale, type GlobalKey } from '../../../locale';
import { useUserStore } from '../../../stores/user';
import { BasicInfo } from './BasicInfo';
import { Certification } from './Certification';
import { RechargeHistory } from './RechargeHistory';
import { Security } from './Security';
import locale from './locale';
import styles from './center.module.css';

const TABS = ['basic', 'security', 'certification', 'recharge'] as const;
type Tab = (typeof TABS)[number];

export default function UserCenter() {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const site = useSite();
  const info = useUserStore((s) => s.info);
  const role = useUserStore((s) => s.role);
  // The tab lives in the URL so a reload or a shared link keeps it.
  const [search, setSearch] = useSearchParams();
  const tab: Tab = TABS.find((k) => k === search.get('tab')) ?? 'basic';

  return (
    <Space direction="vertical" size={16} className={styles.page} data-testid="user-center">
      <Card className={styles.header} bordered={false}>
        <div className={styles.headerBody}>
          <Avatar size={72} className={styles.avatar}>
            <img alt="" src={info?.avatar || site.avatar} />
          </Avatar>
          <div>
            <div>
              <Space align="center">
              <Typography.Title heading={5} className={styles.name} data-testid="user-center-name">
                {info?.name || info?.account}
              </Typography.Title>
              {info?.vip_level_name && (
                <Tag color={info.vip_level_color || 'gold'} data-testid="user-center-vip">
                  {info.vip_level_name}
                </Tag>
              )}
              </Space>
            </div>
            <Space size={24} className={styles.meta} wrap>
              <span>
                {t('center.account')}
                {g('common.colon')}
                <b>{info?.account}</b>
              </span>
              <span>
                {t('center.role')}
                {g('common.colon')}
                <Tag size="small" color="arcoblue">{role ? g(`navbar.role.${role}` as GlobalKey) : '-'}</Tag>
              </span>
              <span>
                {t('center.userId')}
                {g('common.colon')}
                {info?.user_id}
              </span>
              {info?.created_at && (
                <span>
                  {t('center.createdAt')}
                  {g('common.colon')}
                  {info.created_at}
                </span>
              )}
            </Space>
          </div>
        </div>
      </Card>
      <Card bordered={false}>
        <Tabs activeTab={tab} onChange={(key) => setSearch({ tab: key }, { replace: true })} destroyOnHide>
          <Tabs.TabPane key="basic" title={<span data-testid="center-tab-basic">{t('center.tab.basic')}</span>}>
            <BasicInfo />
          </Tabs.TabPane>
          <Tabs.TabPane key="security" title={<span data-testid="center-tab-security">{t('center.tab.security')}</span>}>
            <Security />
          </Tabs.TabPane>
          <Tabs.TabPane key="certification" title={<span data-testid="center-tab-certification">{t('center.tab.certification')}</span>}>
            <Certification />
          </Tabs.TabPane>
          <Tabs.TabPane key="recharge" title={<span data-testid="center-tab-recharge">{t('center.tab.recharge')}</span>}>
            <RechargeHistory />
          </Tabs.TabPane>
        </Tabs>
      </Card>
    </Space>
  );
}
