// Model create and update (one form, `mode` prop; docs/SPEC.md §3.4 Model, docs/ORIGINAL-API.md §3.5). Sections show by type
// and corp: the price block of the type (Midjourney corps: task prices), then preset, agents, forwarding
// and fallback. Prices are entered in $ / 1M tokens and sent as ratios (convert.ts).
import { Divider, Form, Typography } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { CORP_PREFIX } from '@fastgate/core/entities/corp';
import { GROUP_PREFIX } from '@fastgate/core/entities/group';
import { MODEL_AGENT_PREFIX } from '@fastgate/core/entities/model-agent';
import { MODEL_PREFIX, type Model } from '@fastgate/core/entities/model';
import type { CorpOption } from '../../components/CorpSelect';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { useResourceDetail, useResourceList } from '../../hooks/resource';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { newModelValues, toFormValues, toRequestBody, type ModelFormValues } from './convert';
import locale from './locale';
import { BasicsSection } from './sections/basics';
import { ForwardSection } from './sections/forward';
import { PricingSection } from './sections/pricing';
import { AgentsSection, FallbackSection, PresetSection } from './sections/routing';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Divider orientation="left">
        <Typography.Text bold>{title}</Typography.Text>
      </Divider>
      {children}
    </>
  );
}

/** The code of the chosen corp: from the corp list, else (a disabled corp) from the record. */
function useCorpCode(corp: string | undefined, record: Model | undefined): string | undefined {
  const corps = useResourceList<CorpOption>(CORP_PREFIX);
  return corps.data?.find((c) => c.id === corp)?.code ?? (record && record.corp === corp ? record.corp_code : undefined);
}

function ModelForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { tk } = useGlobalLocale();
  const [form] = Form.useForm<ModelFormValues>();
  const [search] = useSearchParams();
  const id = mode === 'update' ? (search.get('id') ?? undefined) : undefined;
  // Same query as ResourceForm's (shared cache): the record's corp code when its corp is disabled.
  const detail = useResourceDetail<Model>(MODEL_PREFIX, id);
  const corp = Form.useWatch('corp', form) as string | undefined;
  const type = Form.useWatch('type', form) as number | undefined;
  const corpCode = useCorpCode(corp, detail.data);
  return (
    <ResourceForm<Model, ModelFormValues>
      prefix={MODEL_PREFIX}
      mode={mode}
      listRoute="model.list"
      title={tk(`menu.model.${mode}`)}
      form={form}
      initialValues={newModelValues()}
      toValues={toFormValues}
      // The whole store, not only mounted fields: hidden sections keep their settings (convert.ts decides).
      toBody={() => toRequestBody(form.getFields() as ModelFormValues, corpCode)}
      alsoInvalidate={[GROUP_PREFIX, MODEL_AGENT_PREFIX]}
    >
      <Section title={t('model.section.basics')}>
        <BasicsSection />
      </Section>
      <Section title={t('model.section.pricing')}>
        <PricingSection type={type} corpCode={corpCode} />
      </Section>
      <Section title={t('model.section.preset')}>
        <PresetSection />
      </Section>
      <Section title={t('model.section.agents')}>
        <AgentsSection />
      </Section>
      <Section title={t('model.section.forward')}>
        <ForwardSection self={id} />
      </Section>
      <Section title={t('model.section.fallback')}>
        <FallbackSection self={id} />
      </Section>
    </ResourceForm>
  );
}

export const CreateModel = () => <ModelForm mode="create" />;
export const UpdateModel = () => <ModelForm mode="update" />;
