// Deal types and statuses: the finance records and the user screens (recharges, the user center) share them.
import { definePageLocale } from '../../locale';

export default definePageLocale(
  {
    'deal.type.1': '充值',
    'deal.type.2': '扣除',
    'deal.type.3': '赠送',
    'deal.type.4': '过期',
    'deal.status.1': '成功',
    'deal.status.2': '已退款',
    'deal.status.3': '失败',
  },
  {
    'deal.type.1': 'Recharge',
    'deal.type.2': 'Deduct',
    'deal.type.3': 'Gift',
    'deal.type.4': 'Expire',
    'deal.status.1': 'Success',
    'deal.status.2': 'Refunded',
    'deal.status.3': 'Failed',
  },
);
