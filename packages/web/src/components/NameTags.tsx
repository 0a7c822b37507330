import { Space, Tag, Tooltip, Typography } from '@arco-design/web-react';

/** Referenced records by name (models, agents); the first `max` as tags, the rest in a tooltip. */
export function NameTags({ names, max = 3, color }: { names: readonly string[] | undefined; max?: number; color?: string }) {
  const list = (names ?? []).filter(Boolean);
  if (!list.length) return <Typography.Text type="secondary">-</Typography.Text>;
  const rest = list.slice(max);
  return (
    <Space size={4} wrap>
      {list.slice(0, max).map((name, i) => (
        <Tag key={`${name}-${i}`} size="small" color={color}>
          {name}
        </Tag>
      ))}
      {rest.length > 0 && (
        <Tooltip content={rest.join(', ')}>
          <Tag size="small">+{rest.length}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}
