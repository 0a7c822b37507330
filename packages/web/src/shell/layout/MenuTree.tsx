// The route menu, shown in the sider or (top-menu mode) in the navbar.
import { useMemo } from 'react';
import { Menu } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useGlobalLocale } from '../../locale';
import { useSettingsStore } from '../../stores/settings';
import { useUserStore } from '../../stores/user';
import { menuNames, serverMenuQuery } from '../server-menu';
import { buildMenu, menuKeysFor, type MenuNode } from './menu';
import { menuIcon } from './icons';

function useMenu(): MenuNode[] {
  const role = useUserStore((s) => s.role);
  const fromServer = useSettingsStore((s) => s.menuFromServer);
  const { data } = useQuery({ ...serverMenuQuery, enabled: fromServer });
  return useMemo(() => buildMenu(role, fromServer ? menuNames(data ?? []) : undefined), [role, fromServer, data]);
}

/** `onPick`: called on every click of a screen, the current one included (the phone's menu drawer closes). */
export function MenuTree({ mode, collapse, onPick }: { mode: 'vertical' | 'horizontal'; collapse?: boolean; onPick?: () => void }) {
  const menu = useMenu();
  const { tk } = useGlobalLocale();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const keys = useMemo(() => menuKeysFor(menu, pathname), [menu, pathname]);
  const paths = useMemo(() => new Map(menu.flatMap((n) => [n, ...(n.children ?? [])]).map((n) => [n.name, n.path])), [menu]);

  return (
    <Menu
      mode={mode}
      collapse={collapse}
      selectedKeys={keys.selected}
      defaultOpenKeys={keys.open}
      autoOpen={mode === 'vertical'}
      onClickMenuItem={(key) => {
        const path = paths.get(key);
        onPick?.();
        if (path && path !== pathname) navigate(path);
      }}
      data-testid={mode === 'vertical' ? 'side-menu' : 'top-menu'}
      style={mode === 'vertical' ? { width: '100%' } : { background: 'transparent' }}
    >
      {menu.map((node) =>
        node.children ? (
          <Menu.SubMenu
            key={node.name}
            title={
              <>
                {menuIcon(node.name)}
                {tk(`menu.${node.name}`)}
              </>
            }
          >
            {node.children.map((child) => (
              <Menu.Item key={child.name} data-testid={`menu-${child.name}`}>
                {tk(`menu.${child.name}`)}
              </Menu.Item>
            ))}
          </Menu.SubMenu>
        ) : (
          <Menu.Item key={node.name} data-testid={`menu-${node.name}`}>
            {menuIcon(node.name, node.area)}
            {tk(`menu.${node.title ?? node.name}`)}
          </Menu.Item>
        ),
      )}
    </Menu>
  );
}
