// Sizes of the shell's layout that pages need too (forms scroll their errors below the fixed navbar), and the
// one set of width breakpoints the console adapts at (hooks/breakpoint.ts reads them; the CSS media queries
// of layout.module.css, global.css and the pages use the same pixel values).
export const NAVBAR_HEIGHT = 60;

/** Below this width a phone: the sider is a drawer, search forms one column, details one column (Arco's `md`). */
const PHONE_BELOW = 768;
/** Below this width (and from PHONE_BELOW) a tablet: forms stack label over input, search forms in two columns. */
const TABLET_BELOW = 1024;

export type Breakpoint = 'phone' | 'tablet' | 'desktop';

/** Media queries of the breakpoints, for `matchMedia`. */
export const PHONE_QUERY = `(max-width: ${PHONE_BELOW - 1}px)`;
export const TABLET_QUERY = `(max-width: ${TABLET_BELOW - 1}px)`;

type Screen = 'xs' | 'sm' | 'md' | 'lg' | 'xl' | 'xxl' | 'xxxl';

/**
 * Arco Descriptions' `column` for a detail of `columns` columns: one on phones, `columns` from `md` (= PHONE_BELOW)
 * up. Every screen is named, since Arco falls back to three for a screen the object leaves out.
 */
export function detailColumns(columns: number): Record<Screen, number> {
  return { xs: 1, sm: 1, md: columns, lg: columns, xl: columns, xxl: columns, xxxl: columns };
}
