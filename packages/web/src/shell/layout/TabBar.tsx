// Tab bar (docs/SPEC.md §2.5 settings: tabBar): the visited screens; reload goes through `/redirect/:path`.
import { Dropdown, Menu, Tag } from '@arco-design/web-react';
import { IconDown, IconRefresh } from '@arco-design/web-react/icon';
import { useLocation, useNavigate } from 'react-router';
import { useGlobalLocale } from '../../locale';
import { useTabsStore } from '../../stores/tabs';
import { landingPath } from '../routing';
import styles from './layout.module.css';

export function TabBar() {
  const tabs = useTabsStore((s) => s.tabs);
  const close = useTabsStore((s) => s.close);
  const closeOthers = useTabsStore((s) => s.closeOthers);
  const reset = useTabsStore((s) => s.reset);
  const { pathname, search } = useLocation();
  const current = pathname + search;
  const navigate = useNavigate();
  const { g, tk } = useGlobalLocale();

  const reload = () => navigate(`/redirect/${encodeURIComponent(current)}`, { replace: true });
  const onClose = (fullPath: string) => {
    const index = tabs.findIndex((t) => t.fullPath === fullPath);
    close(fullPath);
    if (fullPath === current) {
      const next = tabs[index + 1] ?? tabs[index - 1];
      navigate(next ? next.fullPath : landingPath());
    }
  };

  return (
    <div className={styles.tabBar} data-testid="tab-bar">
      <div className={styles.tabs}>
        {tabs.map((tab) => (
          <Tag
            key={tab.fullPath}
            className={styles.tab}
            color={tab.fullPath === current ? 'arcoblue' : undefined}
            closable={tabs.length > 1}
            onClose={() => onClose(tab.fullPath)}
            onClick={() => tab.fullPath !== current && navigate(tab.fullPath)}
            data-testid={`tab-${tab.name}`}
          >
            {tk(tab.title)}
          </Tag>
        ))}
      </div>
      <Dropdown
        droplist={
          <Menu
            onClickMenuItem={(key) => {
              if (key === 'reload') reload();
              if (key === 'others') closeOthers(current);
              if (key === 'all') {
                reset();
                navigate(landingPath());
              }
            }}
          >
            <Menu.Item key="reload">{g('tabs.reload')}</Menu.Item>
            <Menu.Item key="others">{g('tabs.closeOthers')}</Menu.Item>
            <Menu.Item key="all">{g('tabs.closeAll')}</Menu.Item>
          </Menu>
        }
      >
        <span className={styles.tabAction} data-testid="tab-actions">
          <IconRefresh onClick={reload} /> <IconDown />
        </span>
      </Dropdown>
    </div>
  );
}
