// The side menu, built from the route table: areas in menu order, screens the role may open (and, with
// menus from the server, that the server lists).
import type { Role } from '@fastgate/core/constants';
import { canOpen } from '@fastgate/core/access';
import { appRoutes } from '@fastgate/core/routes';

export interface MenuNode {
  name: string;
  path: string;
  /** The area of a one-screen area shown as its screen. */
  area?: string;
  /** Route name whose menu title to show, when not the node's own. */
  title?: string;
  children?: MenuNode[];
}

export function buildMenu(role: Role | undefined, allowed?: Set<string>): MenuNode[] {
  return appRoutes
    .filter((area) => area.menuOrder !== undefined && !area.hidden && canOpen(role, area))
    .sort((a, b) => (a.menuOrder ?? 0) - (b.menuOrder ?? 0))
    .flatMap((area): MenuNode[] => {
      const screens = (area.children ?? []).filter(
        (screen) => !screen.hidden && canOpen(role, screen) && (!allowed || allowed.has(screen.name)),
      );
      if (screens.length === 0) return [];
      const items: MenuNode[] = screens.map((screen) => ({ name: screen.name, path: screen.path }));
      // An area with one visible screen is shown as that screen (a user sees "个人中心", not "用户管理"),
      // titled by the area when the screen is the area's landing (an admin sees "公司管理", not "公司列表").
      if (items.length === 1) {
        const only = items[0]!;
        return [{ ...only, area: area.name, ...(area.redirect === only.path ? { title: area.name } : {}) }];
      }
      return [{ name: area.name, path: area.path, children: items }];
    });
}

/** The menu keys (area, screen) that lead to a path, for the selected and open states. */
export function menuKeysFor(menu: MenuNode[], pathname: string): { selected: string[]; open: string[] } {
  for (const node of menu) {
    if (node.path === pathname) return { selected: [node.name], open: [] };
    const child = node.children?.find((c) => pathname === c.path || pathname.startsWith(`${c.path}/`));
    if (child) return { selected: [child.name], open: [node.name] };
  }
  return { selected: [], open: [] };
}
