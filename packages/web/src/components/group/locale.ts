// Strings of the group tags (group management, my group, VIP levels).
import { definePageLocale } from '../../locale';

export default definePageLocale(
  {
    'groupTags.default': '默认',
    'groupTags.never': '永不过期',
    'groupTags.expired': '已过期',
    'groupTags.unlimited': '不限',
    'groupTags.rateLimits.none': '不限速',
  },
  {
    'groupTags.default': 'Default',
    'groupTags.never': 'Never',
    'groupTags.expired': 'Expired',
    'groupTags.unlimited': 'Unlimited',
    'groupTags.rateLimits.none': 'No limits',
  },
);
