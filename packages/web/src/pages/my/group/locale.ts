import { definePageLocale } from '../../../locale';

export default definePageLocale(
  {
    'myGroup.title': '我的分组',
    'myGroup.hint': '以下是您的账号可以使用的分组。一个模型在多个分组中时，按默认分组优先、其次权重大的分组计费；折扣为按原价支付的比例。',
    'myGroup.name': '分组名称',
    'myGroup.search': '按名称筛选',
    'myGroup.discount': '折扣',
    'myGroup.models': '模型',
    'myGroup.rateLimits': '限速',
    'myGroup.quota': '额度 / 已用',
    'myGroup.expiresAt': '到期时间',
    'myGroup.empty': '暂无可用分组，请联系管理员或代理商授权',
  },
  {
    'myGroup.title': 'My groups',
    'myGroup.hint': 'The groups your account may use. A model in several groups is billed through the default group first, then the heaviest; the discount is the share of the list price you pay.',
    'myGroup.name': 'Name',
    'myGroup.search': 'Filter by name',
    'myGroup.discount': 'Discount',
    'myGroup.models': 'Models',
    'myGroup.rateLimits': 'Rate limits',
    'myGroup.quota': 'Quota / used',
    'myGroup.expiresAt': 'Expires at',
    'myGroup.empty': 'No groups yet: ask your administrator or reseller to grant you one',
  },
);
