import { Tag, Typography } from '@arco-design/web-react';

/** Yes/no flags as a tag (only "yes" is coloured, so lists read at a glance). */
export function FlagTag({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  return value ? (
    <Tag size="small" color="arcoblue">
      {yes}
    </Tag>
  ) : (
    <Typography.Text type="secondary">{no}</Typography.Text>
  );
}
