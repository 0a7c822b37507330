// Upstream health of keys and agents (issue 13): breaker states, the auto-disabled flag and the key test.
import { definePageLocale } from '../../locale';

export default definePageLocale(
  {
    'health.autoDisabled.yes': '已自动禁用',
    'health.autoDisabled.no': '否',
    'health.autoDisabled.reason': '原因：{reason}',
    'health.autoDisabled.noReason': '未记录原因',
    'health.closed': '正常',
    'health.open': '熔断',
    'health.half_open': '试探中',
    'health.cooling': '冷却中',
    'health.rate': '错误率 {rate}%',
    'health.calls': '最近一分钟：{calls} 次调用，{failures} 次临时错误',
    'health.lastError': '最近错误（{at}）：{status} {message}',
    'health.retryAt': '{at} 后用一次真实请求试探',
    'health.coolingUntil': '上游要求等待至 {at}',
    'health.test.ok': '测试通过：HTTP {status}，{ms} ms',
    'health.test.failed': '测试失败：HTTP {status}，{message}',
  },
  {
    'health.autoDisabled.yes': 'Auto-disabled',
    'health.autoDisabled.no': 'No',
    'health.autoDisabled.reason': 'Reason: {reason}',
    'health.autoDisabled.noReason': 'No reason recorded',
    'health.closed': 'Healthy',
    'health.open': 'Open',
    'health.half_open': 'Probing',
    'health.cooling': 'Cooling',
    'health.rate': '{rate}% errors',
    'health.calls': 'Last minute: {calls} calls, {failures} transient errors',
    'health.lastError': 'Last error ({at}): {status} {message}',
    'health.retryAt': 'One live request probes it after {at}',
    'health.coolingUntil': 'The upstream asked to wait until {at}',
    'health.test.ok': 'Test passed: HTTP {status}, {ms} ms',
    'health.test.failed': 'Test failed: HTTP {status}, {message}',
  },
);
