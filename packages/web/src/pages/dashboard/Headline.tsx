// The body the balance cards share: a dollar figure under its label, then a column of details.
import { Descriptions, Typography } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import styles from './workplace.module.css';

export function Headline({ label, value, testId, details }: { label: string; value: string; testId: string; details: { label: string; value: ReactNode }[] }) {
  return (
    <>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div className={styles.balance} data-testid={testId}>
        {value}
      </div>
      <Descriptions column={1} size="small" style={{ marginTop: 12 }} labelStyle={{ paddingRight: 12 }} data={details} />
    </>
  );
}
