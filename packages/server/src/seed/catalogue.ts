// The seed's catalogue: vendors, ~30 priced models of every family (chat, embedding, image, speech,
// digital human…), one model agent per vendor with its upstream keys, and the admin's groups. Created
// through the console API as an admin would, each only when missing (matched by name), so a re-run
// reuses what is there.
import { ids } from '@fastgate/core/resource';
import { ModelType } from '@fastgate/core/entities/model';
import type { ModelQuotas } from '@fastgate/core/entities/model-quota';
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context';
import type { GroupRow, ModelAgentRow, ModelRow, ProviderKeyRow } from '../db/schema';
import type { ConsoleClient } from './console-client';

interface SeedCorp {
  name: string;
  code: string;
  base_url: string;
}

const SEED_CORPS: SeedCorp[] = [
  { name: 'OpenAI', code: 'OpenAI', base_url: 'https://api.openai.com' },
  { name: 'Anthropic', code: 'Anthropic', base_url: 'https://api.anthropic.com' },
  { name: 'Google', code: 'Google', base_url: 'https://generativelanguage.googleapis.com' },
  { name: 'DeepSeek', code: 'DeepSeek', base_url: 'https://api.deepseek.com' },
  { name: '阿里云百炼', code: 'Aliyun', base_url: 'https://dashscope.aliyuncs.com/compatible-mode' },
  { name: '智谱AI', code: 'ZhipuAI', base_url: 'https://open.bigmodel.cn/api/paas' },
  { name: '月之暗面', code: 'Moonshot', base_url: 'https://api.moonshot.cn' },
  { name: '火山引擎', code: 'Other', base_url: 'https://ark.cn-beijing.volces.com/api' },
  { name: '数字人平台', code: 'Other', base_url: 'https://avatar.example.com' },
];

/** A model of the seed: its vendor, family, prices and how often callers pick it (relative). */
interface SeedModel {
  corp: string;
  name: string;
  type: number;
  popularity: number;
  quotas: Partial<ModelQuotas>;
}

/** $ per million tokens → ratio (quota units per token): × 500000 / 1e6. */
const ratio = (usdPerMillion: number) => Number((usdPerMillion * 0.5).toFixed(6));
const text = (input: number, output: number, cached = input / 2) => ({
  billing_method: 1 as const,
  prompt_ratio: ratio(input),
  completion_ratio: ratio(output),
  cached_ratio: ratio(cached),
  fixed_quota: 0,
});
const chat = (corp: string, name: string, popularity: number, input: number, output: number, type: number = ModelType.Text): SeedModel => ({
  corp,
  name,
  type,
  popularity,
  quotas: { text_quota: text(input, output) },
});
/** Per-image prices in $ by quality and size (DALL·E style). */
const image = (corp: string, name: string, type: number, popularity: number, usd: [string, number, number, number][]): SeedModel => ({
  corp,
  name,
  type,
  popularity,
  quotas: {
    image_quota: {
      billing_method: 2,
      generation_quotas: usd.map(([quality, width, height, price], i) => ({ quality, width, height, fixed_quota: Math.round(price * 500_000), is_default: i === 0 })),
      text_ratio: 0,
      input_ratio: 0,
      output_ratio: 0,
      cached_ratio: 0,
      fixed_quota: Math.round(usd[0]![3] * 500_000),
    },
  },
});
const unit = (name: string, type: number, popularity: number, usd: number, u: 'call' | 'second') => {
  const block = { fixed_quota: Math.round(usd * 500_000), unit: u };
  const key = type === ModelType.DigitalHuman ? 'digital_human_quota' : type === ModelType.AudioClone ? 'audio_clone_quota' : 'video_second_creation_quota';
  return { corp: '数字人平台', name, type, popularity, quotas: { [key]: block } } satisfies SeedModel;
};

const SEED_MODELS: SeedModel[] = [
  chat('OpenAI', 'gpt-4o', 12, 2.5, 10),
  chat('OpenAI', 'gpt-4o-mini', 20, 0.15, 0.6),
  chat('OpenAI', 'gpt-4.1', 6, 2, 8),
  chat('OpenAI', 'gpt-4.1-mini', 8, 0.4, 1.6),
  chat('OpenAI', 'o3-mini', 3, 1.1, 4.4),
  chat('Anthropic', 'claude-sonnet-4', 6, 3, 15),
  chat('Anthropic', 'claude-3-5-haiku', 3, 0.8, 4),
  chat('Google', 'gemini-2.0-flash', 6, 0.1, 0.4),
  {
    corp: 'Google',
    name: 'gemini-2.5-pro',
    type: ModelType.Multimodal,
    popularity: 3,
    quotas: { multimodal_quota: { billing_rule: 1, text_quota: text(1.25, 10), vision_quotas: [], search_quota: 0, search_quotas: [] } },
  },
  chat('DeepSeek', 'deepseek-chat', 10, 0.27, 1.1),
  chat('DeepSeek', 'deepseek-reasoner', 4, 0.55, 2.19),
  chat('阿里云百炼', 'qwen-max', 3, 1.6, 6.4),
  chat('阿里云百炼', 'qwen-plus', 4, 0.4, 1.2),
  chat('阿里云百炼', 'qwen-turbo', 2, 0.05, 0.2),
  chat('阿里云百炼', 'qwen-vl-max', 1, 0.4, 1.2, ModelType.ImageToText),
  chat('智谱AI', 'glm-4-plus', 2, 0.7, 0.7),
  chat('月之暗面', 'moonshot-v1-8k', 1, 1.65, 1.65),
  chat('火山引擎', 'doubao-pro-32k', 3, 0.11, 0.28),
  {
    corp: 'OpenAI',
    name: 'gpt-4o-realtime-preview',
    type: ModelType.MultimodalRealtime,
    popularity: 0.4,
    quotas: { realtime_quota: { text_quota: text(5, 20), audio_quota: text(40, 80), fixed_quota: 0 } },
  },
  { ...chat('OpenAI', 'text-embedding-3-small', 3, 0.02, 0), type: ModelType.Embedding },
  { ...chat('OpenAI', 'text-embedding-3-large', 1, 0.13, 0), type: ModelType.Embedding },
  image('OpenAI', 'dall-e-3', ModelType.TextToImage, 1.5, [['standard', 1024, 1024, 0.04], ['hd', 1024, 1024, 0.08], ['standard', 1792, 1024, 0.08], ['hd', 1792, 1024, 0.12]]),
  image('OpenAI', 'gpt-image-1', ModelType.TextToImage, 0.6, [['medium', 1024, 1024, 0.042], ['high', 1024, 1024, 0.167], ['low', 1024, 1024, 0.011]]),
  image('火山引擎', 'seededit-3.0', ModelType.ImageToImage, 0.3, [['', 1024, 1024, 0.03]]),
  // Speech: quota per input character; transcription: quota per second of audio.
  { corp: 'OpenAI', name: 'tts-1', type: ModelType.TextToSpeech, popularity: 0.8, quotas: { audio_quota: { ...text(0, 0), prompt_ratio: 7.5 } } },
  { corp: 'OpenAI', name: 'whisper-1', type: ModelType.SpeechToText, popularity: 0.6, quotas: { audio_quota: { ...text(0, 0), prompt_ratio: 50 } } },
  unit('digital-human-v2', ModelType.DigitalHuman, 0.15, 0.02, 'second'),
  unit('voice-clone-v1', ModelType.AudioClone, 0.05, 0.5, 'call'),
  unit('video-remix-v1', ModelType.VideoSecondCreation, 0.08, 0.01, 'second'),
];

/** The admin's groups: who may use what at which discount (catalogue/access.ts decides who bills where). */
const SEED_GROUPS = [
  // Public at full price: every account can call every model.
  { name: '标准', discount: 100, weight: 1, is_public: true, models: 'all' },
  // Granted to some users (seed accounts), chat models at 85 %.
  { name: 'VIP', discount: 85, weight: 10, is_public: false, models: 'chat' },
  // Granted to the heaviest users: everything at 70 %.
  { name: '企业', discount: 70, weight: 20, is_public: false, models: 'all' },
] as const;
type SeedGroupName = (typeof SEED_GROUPS)[number]['name'];

/** Families shown in the chat log (and what the reseller groups resell). */
export const CHAT_TYPES: readonly number[] = [ModelType.Text, ModelType.ImageToText, ModelType.Multimodal, ModelType.MultimodalRealtime, ModelType.Embedding];

export interface Catalogue {
  models: ModelRow[];
  /** Model id → its popularity weight (0 for models the seed did not define). */
  popularity: Map<string, number>;
  corpNames: Map<string, string>;
  /** Model id → the agents serving it, with their keys. */
  agentsOf: Map<string, { agent: ModelAgentRow; keys: ProviderKeyRow[] }[]>;
  groups: Map<SeedGroupName, GroupRow>;
  created: { corps: number; agents: number; models: number; groups: number };
}

/** Creates what is missing of the seed catalogue as `admin`, then reads the whole catalogue back. */
export async function ensureCatalogue(ctx: Ctx, admin: ConsoleClient): Promise<Catalogue> {
  const { db } = ctx;
  const created = { corps: 0, agents: 0, models: 0, groups: 0 };
  const corpIds = new Map<string, string>();
  for (const [i, c] of SEED_CORPS.entries()) {
    const row = await db.selectFrom('corps').select('id').where('name', '=', c.name).executeTakeFirst();
    if (row) corpIds.set(c.name, row.id);
    else {
      const { id } = await admin.post<{ id: string }>('/corp/create', { name: c.name, code: c.code, sort: i + 1, is_public: true });
      corpIds.set(c.name, id);
      created.corps++;
    }
  }

  // One agent per vendor with three upstream keys (rotated by the gateway; the logs name one each call).
  const agentIds = new Map<string, string>();
  for (const c of SEED_CORPS) {
    const name = `${c.name} 官方`;
    const row = await db.selectFrom('model_agents').select('id').where('name', '=', name).executeTakeFirst();
    if (row) agentIds.set(c.name, row.id);
    else {
      const keys = Array.from({ length: 3 }, () => `sk-${c.code.toLowerCase()}-${randomBytes(18).toString('hex')}`).join('\n');
      const { id } = await admin.post<{ id: string }>('/model/agent/create', { corp: corpIds.get(c.name), name, base_url: c.base_url, key: keys });
      agentIds.set(c.name, id);
      created.agents++;
    }
  }

  for (const m of SEED_MODELS) {
    const row = await db.selectFrom('models').select('id').where('name', '=', m.name).executeTakeFirst();
    if (row) continue;
    await admin.post('/model/create', {
      corp: corpIds.get(m.corp),
      name: m.name,
      model: m.name,
      type: m.type,
      is_enable_model_agent: true,
      model_agents: [agentIds.get(m.corp)],
      ...m.quotas,
    });
    created.models++;
  }

  const models = await db.selectFrom('models').selectAll().where('status', '=', 1).orderBy('name').execute();
  const seedIds = new Set<string>();
  const byName = new Map(models.map((m) => [m.name, m]));
  for (const m of SEED_MODELS) if (byName.has(m.name)) seedIds.add(byName.get(m.name)!.id);
  const chatIds = models.filter((m) => seedIds.has(m.id) && CHAT_TYPES.includes(m.type)).map((m) => m.id);
  for (const g of SEED_GROUPS) {
    const row = await db.selectFrom('groups').select('id').where('name', '=', g.name).where('user_id', '=', 0).executeTakeFirst();
    if (row) continue;
    await admin.post('/group/create', {
      name: g.name,
      discount: g.discount,
      weight: g.weight,
      is_public: g.is_public,
      models: g.models === 'all' ? [...seedIds] : chatIds,
      remark: 'seed',
    });
    created.groups++;
  }

  const corps = await db.selectFrom('corps').select(['id', 'name']).execute();
  const agents = await db.selectFrom('model_agents').selectAll().where('status', '=', 1).execute();
  const keys = await db.selectFrom('provider_keys').selectAll().where('status', '=', 1).execute();
  const agentsOf = new Map<string, { agent: ModelAgentRow; keys: ProviderKeyRow[] }[]>();
  for (const agent of agents) {
    const own = keys.filter((k) => ids.decode(k.model_agents).includes(agent.id));
    if (!own.length) continue;
    for (const modelId of ids.decode(agent.models)) agentsOf.set(modelId, [...(agentsOf.get(modelId) ?? []), { agent, keys: own }]);
  }
  const groups = new Map<SeedGroupName, GroupRow>();
  for (const g of SEED_GROUPS) {
    const row = await db.selectFrom('groups').selectAll().where('name', '=', g.name).where('user_id', '=', 0).executeTakeFirst();
    if (row) groups.set(g.name, row);
  }
  const weightOf = new Map(SEED_MODELS.map((m) => [m.name, m.popularity]));
  return {
    models,
    popularity: new Map(models.map((m) => [m.id, weightOf.get(m.name) ?? 0])),
    corpNames: new Map(corps.map((c) => [c.id, c.name])),
    agentsOf,
    groups,
    created,
  };
}
