// ECharts for the workplace, tree-shaken: only the line and pie charts, the components they use and the
// canvas renderer are registered, and only this route's chunk imports them (never the login bundle).
// The chart follows the console theme (ECharts' built-in dark theme on a transparent background) and
// its container's size (a ResizeObserver covers window resizes and the side menu collapsing).
import { useEffect, useRef } from 'react';
import { init, use as registerCharts, type ComposeOption, type ECharts } from 'echarts/core';
import { LineChart, PieChart, type LineSeriesOption, type PieSeriesOption } from 'echarts/charts';
import { GridSimpleComponent, LegendPlainComponent, TooltipComponent, type GridComponentOption, type LegendComponentOption, type TooltipComponentOption } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useSettingsStore } from '../../stores/settings';

registerCharts([LineChart, PieChart, GridSimpleComponent, LegendPlainComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<LineSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

/** Arco's palette (arcoblue, green, purple, red, orange, cyan, gold, pinkpurple, lime, magenta): series keep a fixed colour. */
export const PALETTE = ['#165DFF', '#00B42A', '#722ED1', '#F53F3F', '#FF7D00', '#14C9C9', '#F7BA1E', '#D91AD9', '#9FDB1D', '#F5319D'];

export interface ChartProps {
  option: ChartOption;
  height: number;
  testId?: string;
  /** A text alternative (screen readers; the canvas itself says nothing). */
  label?: string;
}

export function Chart({ option, height, testId, label }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | undefined>(undefined);
  const dark = useSettingsStore((s) => s.theme === 'dark');

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = init(el, dark ? 'dark' : undefined);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = undefined;
    };
  }, [dark]);

  useEffect(() => {
    // `dark` re-runs this after the theme change re-created the instance.
    chart.current?.setOption({ color: PALETTE, backgroundColor: 'transparent', ...option }, { notMerge: true });
  }, [option, dark]);

  return <div ref={box} style={{ width: '100%', height }} role="img" aria-label={label} data-testid={testId} />;
}
