// A long id in a table cell: CSS ellipsis keeps the whole id in the DOM (find-in-page, tests), the
// title shows it on hover, and a button copies it.
import { Space } from '@arco-design/web-react';
import { CopyButton } from './CopyButton';

export function CopyableId({ id, maxWidth }: { id: string; maxWidth: number }) {
  return (
    <Space size={2}>
      <span title={id} style={{ display: 'inline-block', maxWidth, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'middle' }}>
        {id}
      </span>
      <CopyButton fetch={id} />
    </Space>
  );
}
