// @arco-design/color ships plain CommonJS without types.
declare module '@arco-design/color' {
  export function generate(color: string, options?: { list?: boolean; dark?: boolean; index?: number; format?: 'hex' | 'rgb' | 'hsl' }): string | string[];
  export function getRgbStr(color: string): string;
}
