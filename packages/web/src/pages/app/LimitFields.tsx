// The limits apps and app keys share (docs/ORIGINAL-API.md §3.2, §3.3): models, bound group, quota and IP lists.
// Form.Items only, so the app form and the key modals each place them in their own Form.
import { Form, Switch } from '@arco-design/web-react';
import { GROUP_PREFIX, type GroupListItem } from '@fastgate/core/entities/group';
import { IpListInput, ipListRule } from '../../components/IpListInput';
import { ModelSelect } from '../../components/ModelSelect';
import { QuotaInput } from '../../components/QuotaInput';
import { ResourceSelect } from '../../components/ResourceSelect';
import { required } from '../../components/rules';
import { usePageLocale } from '../../locale';
import locale from './locale';

/** The form values of these fields (IP lists as newline text). */
export interface LimitValues {
  models?: string[];
  is_bind_group?: boolean;
  group?: string;
  is_limit_quota?: boolean;
  quota?: number;
  ip_whitelist?: string;
  ip_blacklist?: string;
}

/** A detail row's limits as form values. */
export function limitValues(row: { models: string[]; is_bind_group: boolean; group: string; is_limit_quota: boolean; quota: number; ip_whitelist: string[]; ip_blacklist: string[] }): LimitValues {
  return {
    models: row.models ?? [],
    is_bind_group: !!row.is_bind_group,
    group: row.group || undefined,
    is_limit_quota: !!row.is_limit_quota,
    quota: row.quota ?? 0,
    ip_whitelist: (row.ip_whitelist ?? []).join('\n'),
    ip_blacklist: (row.ip_blacklist ?? []).join('\n'),
  };
}

/** Form values → the wire fields (an unbound group is sent empty, IP lists as newline text). */
export function limitBody(v: LimitValues) {
  return {
    models: v.models ?? [],
    is_bind_group: !!v.is_bind_group,
    group: v.is_bind_group ? (v.group ?? '') : '',
    is_limit_quota: !!v.is_limit_quota,
    quota: v.quota ?? 0,
    ip_whitelist: v.ip_whitelist ?? '',
    ip_blacklist: v.ip_blacklist ?? '',
  };
}

const watch = (name: keyof LimitValues) => (prev: Record<string, unknown>, next: Record<string, unknown>) => prev[name] !== next[name];

/** `testId` prefixes each control's data-testid (`app-models`, `app-key-quota`, …). */
export function LimitFields({ testId }: { testId: string }) {
  const t = usePageLocale(locale);
  // docs/SPEC.md §5: ranges and CIDR for apps, no wildcards.
  const ipRule = ipListRule({ wildcard: false });
  return (
    <>
      <Form.Item label={t('app.models')} field="models" extra={t('app.limit.models.extra')}>
        <ModelSelect data-testid={`${testId}-models`} />
      </Form.Item>
      <Form.Item label={t('app.limit.bindGroup')} field="is_bind_group" triggerPropName="checked" extra={t('app.limit.bindGroup.extra')}>
        <Switch data-testid={`${testId}-bind-group`} />
      </Form.Item>
      <Form.Item noStyle shouldUpdate={watch('is_bind_group')}>
        {(values: LimitValues) =>
          values.is_bind_group && (
            <Form.Item label={t('app.group')} field="group" rules={[required(t('app.limit.group.required'))]}>
              <ResourceSelect<GroupListItem>
                prefix={GROUP_PREFIX}
                labelOf={(g) => g.name}
                silent
                placeholder={t('app.limit.group.placeholder')}
                style={{ width: 320 }}
                data-testid={`${testId}-group`}
              />
            </Form.Item>
          )
        }
      </Form.Item>
      <Form.Item label={t('app.limit.limitQuota')} field="is_limit_quota" triggerPropName="checked">
        <Switch data-testid={`${testId}-limit-quota`} />
      </Form.Item>
      <Form.Item noStyle shouldUpdate={watch('is_limit_quota')}>
        {(values: LimitValues) =>
          values.is_limit_quota && (
            <Form.Item label={t('app.quota')} field="quota" rules={[required(t('app.limit.quota.required'))]} extra={t('app.limit.quota.extra')}>
              <QuotaInput data-testid={`${testId}-quota`} />
            </Form.Item>
          )
        }
      </Form.Item>
      <Form.Item label={t('app.limit.ipWhitelist')} field="ip_whitelist" rules={[ipRule]} extra={t('app.limit.ipWhitelist.extra')}>
        <IpListInput data-testid={`${testId}-ip-whitelist`} />
      </Form.Item>
      <Form.Item label={t('app.limit.ipBlacklist')} field="ip_blacklist" rules={[ipRule]}>
        <IpListInput data-testid={`${testId}-ip-blacklist`} />
      </Form.Item>
    </>
  );
}
