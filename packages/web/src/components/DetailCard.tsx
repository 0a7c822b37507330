// A detail screen's card, the same on every record screen: the screen's name as its title (the record's
// own name after it), Back and then Edit in the card's extra, and the body through RecordBody (the empty
// state with the way back when there is no record).
import { Button, Card, Space } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { useScreenTitle } from '../hooks/screen-title';
import { useGlobalLocale } from '../locale';
import type { RecordProblem } from './record-state';
import { RecordBody } from './RecordUnavailable';

export interface DetailCardProps {
  /** The record's own name, after the screen's: "站点配置详情 · api.example.com". */
  subject?: string;
  problem: RecordProblem | undefined;
  loading: boolean;
  onBack: () => void;
  /** Edit the record: pass it once the record is loaded. */
  onEdit?: () => void;
  /** The card's test id; its buttons are `<testId>-back` and `<testId>-edit`. */
  testId: string;
  children: ReactNode;
}

export function DetailCard({ subject, problem, loading, onBack, onEdit, testId, children }: DetailCardProps) {
  const { g } = useGlobalLocale();
  const screen = useScreenTitle();
  return (
    <Card
      bordered={false}
      title={subject ? `${screen} · ${subject}` : screen}
      extra={
        <Space>
          <Button onClick={onBack} data-testid={`${testId}-back`}>
            {g('resource.backToList')}
          </Button>
          {onEdit && (
            <Button type="primary" onClick={onEdit} data-testid={`${testId}-edit`}>
              {g('resource.edit')}
            </Button>
          )}
        </Space>
      }
      data-testid={testId}
    >
      <RecordBody problem={problem} loading={loading} onBack={onBack}>
        {children}
      </RecordBody>
    </Card>
  );
}
