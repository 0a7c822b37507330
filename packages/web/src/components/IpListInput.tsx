// IP lists (docs/SPEC.md §5, docs/ORIGINAL-API.md §5.8): newline text on input. The server answers arrays and accepts
// either; the core parser checks each line the same way the server will.
import { Input, type RulesProps } from '@arco-design/web-react';
import type { TextAreaProps } from '@arco-design/web-react/es/Input/interface';
import { parseIpList, type IpListOptions } from '@fastgate/core/ip-list';
import { i18n, useGlobalLocale } from '../locale';

export interface IpListInputProps extends Omit<TextAreaProps, 'value' | 'onChange'> {
  /** Newline text, or the array a detail call returns. */
  value?: string | readonly string[] | null;
  onChange?: (text: string) => void;
  /** User lists also take `*` wildcards; app and app-key lists do not. */
  wildcard?: boolean;
}

export function ipListText(value: string | readonly string[] | null | undefined): string {
  return Array.isArray(value) ? value.join('\n') : ((value as string | null | undefined) ?? '');
}

export function IpListInput({ value, onChange, wildcard, placeholder, ...rest }: IpListInputProps) {
  const { g } = useGlobalLocale();
  return (
    <Input.TextArea
      autoSize={{ minRows: 3, maxRows: 10 }}
      {...rest}
      placeholder={placeholder ?? g(wildcard ? 'ipList.placeholder.wildcard' : 'ipList.placeholder')}
      value={ipListText(value)}
      onChange={(text) => onChange?.(text)}
    />
  );
}

/** Form rule naming the first bad line. */
export function ipListRule(opts: IpListOptions = {}): RulesProps {
  return {
    validator: (value: unknown, callback: (error?: string) => void) => {
      const result = parseIpList(ipListText(value as string | string[] | undefined), opts);
      callback(result.ok ? undefined : i18n.t('ipList.invalid', { line: result.line }));
    },
  };
}
