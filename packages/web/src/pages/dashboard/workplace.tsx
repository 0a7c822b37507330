// Dashboard workplace (docs/SPEC.md §2.2, the landing page; docs/ORIGINAL-API.md §1.4), laid out like Arco Design Pro's
// workplace: the overview cards, the call trend and the Top 10 on the left; the expense card (users and
// resellers), a reseller's margin, the live rates and the model share on the right. Every figure comes from the
// server's pre-aggregated statistics, scoped to the caller's role.
import { Permission } from '../../components/Permission';
import { BaseCards } from './BaseCards';
import { CallTrend } from './CallTrend';
import { ExpenseCard } from './ExpenseCard';
import { LiveRates } from './LiveRates';
import { MarginCard } from './MarginCard';
import { ModelShare } from './ModelShare';
import { TopRanking } from './TopRanking';
import styles from './workplace.module.css';

export default function Workplace() {
  return (
    <div className={styles.page} data-testid="workplace">
      <div className={styles.left}>
        <BaseCards />
        <CallTrend />
        <TopRanking />
      </div>
      <div className={styles.right}>
        <Permission roles={['reseller', 'user']}>
          <ExpenseCard />
        </Permission>
        <Permission roles={['reseller']}>
          <MarginCard />
        </Permission>
        <LiveRates />
        <ModelShare />
      </div>
    </div>
  );
}
