import { definePageLocale } from '../../../locale';

export default definePageLocale(
  {
    'myModel.name': '模型名称',
    'myModel.model': '模型',
    'myModel.corp': '公司',
    'myModel.type': '模型类型',
    'myModel.prices': '价格',
    'myModel.group': '计费分组',
    'myModel.discount': '折扣',
    'myModel.fullPrice': '原价',
    'myModel.percent': '{percent}%',
    'myModel.prices.tip': '文本模型按每 1M tokens 的美元价格计费，固定额度模型按次计费；有分组折扣时绿色为折后价',
  },
  {
    'myModel.name': 'Name',
    'myModel.model': 'Model',
    'myModel.corp': 'Corp',
    'myModel.type': 'Type',
    'myModel.prices': 'Prices',
    'myModel.group': 'Billing group',
    'myModel.discount': 'Discount',
    'myModel.fullPrice': 'Full price',
    'myModel.percent': '{percent}%',
    'myModel.prices.tip': 'Text models are billed in dollars per 1M tokens, fixed-quota models per call; green is the price after the group discount',
  },
);
