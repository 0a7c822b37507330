// The default layout of every signed-in screen (docs/SPEC.md §2.5): navbar, side menu, tab bar, breadcrumb, footer
// and the settings drawer, each shown per the settings store.
import { useEffect, useState } from 'react';
import { Breadcrumb, Button, Layout as ArcoLayout } from '@arco-design/web-react';
import { IconMenuFold, IconMenuUnfold, IconSettings } from '@arco-design/web-react/icon';
import { Outlet, useLocation } from 'react-router';
import { appRoutes } from '@fastgate/core/routes';
import { useGlobalLocale } from '../../locale';
import { useSettingsStore } from '../../stores/settings';
import { useTabsStore } from '../../stores/tabs';
import { useCurrentRoute } from '../current-route';
import { Footer } from './Footer';
import { MenuTree } from './MenuTree';
import { Navbar } from './Navbar';
import { SettingsDrawer } from './SettingsDrawer';
import { TabBar } from './TabBar';
import styles from './layout.module.css';

const NAVBAR_HEIGHT = 60;
const COLLAPSED_WIDTH = 48;

export default function Layout() {
  const settings = useSettingsStore();
  const { navbar, menu, topMenu, footer, tabBar, menuWidth, menuCollapse, update } = settings;
  const [drawer, setDrawer] = useState(false);
  const { tk, g } = useGlobalLocale();
  const route = useCurrentRoute();
  const location = useLocation();
  const openTab = useTabsStore((s) => s.open);

  useEffect(() => {
    if (!route || route.hidden === true || route.path.includes(':')) return;
    openTab({
      title: `menu.${route.name}`,
      name: route.name,
      fullPath: location.pathname + location.search,
      query: Object.fromEntries(new URLSearchParams(location.search)),
    });
  }, [route, location.pathname, location.search, openTab]);

  const showSider = menu && !topMenu;
  const siderWidth = menuCollapse ? COLLAPSED_WIDTH : menuWidth;
  const area = route ? appRoutes.find((a) => a.children?.some((c) => c.name === route.name)) : undefined;

  return (
    <ArcoLayout className={styles.layout}>
      {navbar && <Navbar onOpenSettings={() => setDrawer(true)} />}
      {!navbar && (
        // docs/SPEC.md §2.5: the fixed settings button appears only when the navbar is hidden.
        <Button
          className={styles.fixedSettings}
          type="primary"
          icon={<IconSettings />}
          aria-label={g('navbar.settings')}
          onClick={() => setDrawer(true)}
          data-testid="settings-button"
        />
      )}
      <ArcoLayout style={{ paddingTop: navbar ? NAVBAR_HEIGHT : 0 }}>
        {showSider && (
          <ArcoLayout.Sider
            className={styles.sider}
            width={menuWidth}
            collapsedWidth={COLLAPSED_WIDTH}
            collapsed={menuCollapse}
            onCollapse={(collapsed) => update({ menuCollapse: collapsed })}
            collapsible
            trigger={null}
            breakpoint="xl"
            style={{ top: navbar ? NAVBAR_HEIGHT : 0, height: `calc(100% - ${navbar ? NAVBAR_HEIGHT : 0}px)` }}
          >
            {/* Arco's Sider drops data-* props: the test id sits on a box that fills it. */}
            <div className={styles.siderBody} data-testid="layout-sider">
              <div className={styles.menuWrapper}>
                <MenuTree mode="vertical" collapse={menuCollapse} />
              </div>
              <div
                className={styles.collapseButton}
                onClick={() => update({ menuCollapse: !menuCollapse })}
                role="button"
                tabIndex={0}
                data-testid="menu-collapse"
              >
                {menuCollapse ? <IconMenuUnfold /> : <IconMenuFold />}
              </div>
            </div>
          </ArcoLayout.Sider>
        )}
        <ArcoLayout className={styles.main} style={{ paddingLeft: showSider ? siderWidth : 0 }}>
          {tabBar && <TabBar />}
          <div className={styles.contentWrapper}>
            {route && area && (
              <Breadcrumb className={styles.breadcrumb} data-testid="breadcrumb">
                <Breadcrumb.Item>{tk(`menu.${area.name}`)}</Breadcrumb.Item>
                <Breadcrumb.Item>{tk(`menu.${route.name}`)}</Breadcrumb.Item>
              </Breadcrumb>
            )}
            <ArcoLayout.Content>
              <Outlet />
            </ArcoLayout.Content>
          </div>
          {footer && <Footer />}
        </ArcoLayout>
      </ArcoLayout>
      <SettingsDrawer visible={drawer} onClose={() => setDrawer(false)} />
    </ArcoLayout>
  );
}
