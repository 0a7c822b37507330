// The default layout of every signed-in screen (docs/SPEC.md §2.5): navbar, side menu, tab bar, breadcrumb, footer
// and the settings drawer, each shown per the settings store. On a phone (lib/layout.ts) the menu is a drawer opened
// from the navbar, whatever the menu settings say about the sider or the top menu.
import { useEffect, useState } from 'react';
import { Breadcrumb, Button, Drawer, Layout as ArcoLayout } from '@arco-design/web-react';
import { IconMenu, IconMenuFold, IconMenuUnfold, IconSettings } from '@arco-design/web-react/icon';
import { Outlet, useLocation } from 'react-router';
import { appRoutes } from '@fastgate/core/routes';
import { NAVBAR_HEIGHT } from '../../lib/layout';
import { headingTo } from '../../lib/navigation';
import { useIsPhone } from '../../hooks/breakpoint';
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

const COLLAPSED_WIDTH = 48;

export default function Layout() {
  const settings = useSettingsStore();
  const { navbar, menu, topMenu, footer, tabBar, menuWidth, menuCollapse, update } = settings;
  const [drawer, setDrawer] = useState(false);
  // Where the menu drawer was opened (headingTo), null while it is closed.
  const [menuDrawerAt, setMenuDrawerAt] = useState<string | null>(null);
  const openMenu = () => setMenuDrawerAt(headingTo());
  const closeMenu = () => setMenuDrawerAt(null);
  const phone = useIsPhone();
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

  // The menu drawer closes once the user went somewhere else than where it was opened: opened while a page
  // was still loading, it stays open when that page arrives.
  const here = location.pathname + location.search;
  useEffect(() => setMenuDrawerAt((at) => (at === here ? at : null)), [here]);
  // And when the window grows out of the phone layout.
  useEffect(() => setMenuDrawerAt(null), [phone]);

  const showSider = menu && !topMenu && !phone;
  const phoneMenu = menu && phone;
  const siderWidth = menuCollapse ? COLLAPSED_WIDTH : menuWidth;
  const area = route ? appRoutes.find((a) => a.children?.some((c) => c.name === route.name)) : undefined;
  // An area whose one screen bears its name (应用密钥 / 应用密钥) is one crumb.
  const crumbs = route && area ? [...new Set([tk(`menu.${area.name}`), tk(`menu.${route.name}`)])] : [];
  const top = navbar ? NAVBAR_HEIGHT : 0;

  return (
    <ArcoLayout className={styles.layout}>
      {navbar && <Navbar onOpenSettings={() => setDrawer(true)} onOpenMenu={phoneMenu ? openMenu : undefined} />}
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
      {!navbar && phoneMenu && (
        <Button
          className={`${styles.fixedSettings} ${styles.fixedMenu}`}
          type="primary"
          icon={<IconMenu />}
          aria-label={g('navbar.menu')}
          onClick={openMenu}
          data-testid="menu-button"
        />
      )}
      <ArcoLayout style={{ paddingTop: top }}>
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
            style={{ top, height: `calc(100% - ${top}px)` }}
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
        {/* The navbar's padding above takes its height: the page fills the rest of the window, no more. */}
        <ArcoLayout className={styles.main} style={{ paddingLeft: showSider ? siderWidth : 0, minHeight: `calc(100vh - ${top}px)` }}>
          {tabBar && <TabBar />}
          <div className={styles.contentWrapper}>
            {crumbs.length > 0 && (
              <Breadcrumb className={styles.breadcrumb} data-testid="breadcrumb">
                {crumbs.map((crumb) => (
                  <Breadcrumb.Item key={crumb}>{crumb}</Breadcrumb.Item>
                ))}
              </Breadcrumb>
            )}
            {/* The screen drawn (tests wait for it: the address bar changes before the page does). */}
            <ArcoLayout.Content data-screen={route?.name}>
              <Outlet />
            </ArcoLayout.Content>
          </div>
          {footer && <Footer />}
        </ArcoLayout>
      </ArcoLayout>
      {phoneMenu && (
        <Drawer
          className={styles.menuDrawer}
          placement="left"
          width={Math.min(menuWidth, 280)}
          title={null}
          footer={null}
          closable={false}
          visible={menuDrawerAt !== null}
          onCancel={closeMenu}
          data-testid="menu-drawer"
        >
          <MenuTree mode="vertical" onPick={closeMenu} />
        </Drawer>
      )}
      <SettingsDrawer visible={drawer} onClose={() => setDrawer(false)} />
    </ArcoLayout>
  );
}
