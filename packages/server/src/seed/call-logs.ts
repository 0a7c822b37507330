// Synthetic call logs shaped like the gateway's (gateway/call-log.ts): one row per upstream attempt, in
// request-time order, generated chunk by chunk so memory stays flat whatever the row count.
//
// Shapes: hourly volume follows a working day in the configured time zone (quiet nights, a dip at
// lunch, weekends at 60 %), grows over the window and varies by day; callers are Zipf-distributed
// (a few heavy users, a long tail) and only call after their account exists; each caller has its own
// taste in models; ~1.5 % of requests succeed after a retried attempt (status 3 rows sharing the trace),
// ~2 % fail (some after a retry), ~1 % of streams are aborted. Prices come from the server's own
// pricing functions (billing/price.ts) with the discount of the group catalogue/access.ts bills through,
// so total_price is what the gateway would have charged.
import { LogStatus } from '@fastgate/core/entities/call-log';
import { ModelType } from '@fastgate/core/entities/model';
import type { ModelQuotas } from '@fastgate/core/entities/model-quota';
import { priceChat, priceEmbedding, priceImage, priceSpeech, priceTranscription, priceUnitFor, type Price } from '../billing/price';
import type { CallLogRow, ModelAgentRow, ModelRow, ProviderKeyRow } from '../db/schema';
import type { GroupRecord } from '../catalogue/groups';
import { newId, newTraceId } from '../http/ids';
import type { SeedUser } from './accounts';
import type { Catalogue } from './catalogue';
import { Random, Weighted, zipf } from './random';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Relative traffic per local hour of the day: office hours, a lunch dip, a quiet night. */
const HOURLY = [0.22, 0.14, 0.1, 0.08, 0.08, 0.1, 0.18, 0.35, 0.7, 1.0, 1.15, 1.1, 0.8, 0.9, 1.15, 1.2, 1.15, 1.0, 0.8, 0.75, 0.8, 0.75, 0.6, 0.4];

const PROMPTS = [
  '帮我把下面这段话翻译成英文：我们下周二上午十点在三楼会议室开项目评审会。',
  '用 Python 写一个函数，读取 CSV 文件并按第二列求和。',
  'Summarize the following customer ticket in two sentences and suggest a priority.',
  '请根据以下产品信息写一段 100 字左右的电商文案，突出续航和轻薄。',
  'What is the difference between a process and a thread? Answer briefly.',
  '把这段 SQL 改写成使用窗口函数的版本，并解释性能差异。',
  '你是一名客服，请礼貌地回复用户关于退款进度的询问。',
  'Extract all dates and amounts from this invoice text and return JSON.',
  '给我列一个三天的杭州旅游行程，预算两千元以内。',
  'Review this TypeScript code for bugs: function add(a, b) { return a + b }',
  '解释一下什么是向量数据库，它和传统数据库有什么区别？',
  'Write a polite follow-up email to a supplier about a delayed shipment.',
  '根据知识库内容回答：公司年假如何计算？',
  'Classify the sentiment of these 5 product reviews as positive, neutral or negative.',
  '帮我润色这段周报，让它更简洁专业。',
  'Generate 10 test cases for a password strength checker.',
];
const COMPLETIONS = [
  'Sure! Here is a concise version of the text, keeping the key facts and the requested tone.',
  '好的，以下是根据您的要求整理的内容：\n1. 明确目标和时间节点；\n2. 拆分任务并指定负责人；\n3. 每周同步一次进度。',
  'The main difference is that threads share the memory of their process, while processes are isolated from each other.',
  '```python\nimport csv\n\ndef sum_second_column(path):\n    with open(path) as f:\n        return sum(float(row[1]) for row in csv.reader(f))\n```',
  '您好，您的退款申请已提交，预计 3-5 个工作日原路退回，请您耐心等待。如有疑问欢迎随时联系我们。',
  '{"dates": ["2024-03-01", "2024-03-15"], "amounts": [1250.00, 89.90]}',
  '第一天：西湖、断桥、雷峰塔；第二天：灵隐寺、龙井村；第三天：河坊街、京杭大运河。预计总花费约 1800 元。',
  'Positive: 3, Neutral: 1, Negative: 1. The negative review mentions slow delivery.',
  '向量数据库以高维向量为核心数据类型，支持基于相似度的近邻检索，适合语义搜索和 RAG 场景。',
  'Here are ten test cases covering length, character classes, common passwords and unicode input.',
];
const IMAGE_PROMPTS = ['一只在雨夜霓虹街头散步的橘猫，赛博朋克风格', 'A minimalist logo for a coffee brand, flat design', '产品海报：白色背景上的无线耳机，柔和光线', 'Watercolor painting of mountains at sunrise'];
/** Upstream failures as the providers word them (providers/errors.ts passes them through). */
const RETRYABLE = [
  'Rate limit reached for requests per min. Please try again in 20s.',
  'The server had an error while processing your request. Sorry about that!',
  'upstream returned HTTP 502 (HTML page: 502 Bad Gateway)',
  'upstream returned HTTP 503 with an empty body',
  'The operation was aborted due to timeout',
  'Overloaded',
];
const FINAL = [
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 131542 tokens.",
  'Invalid request: the content was flagged by the safety system.',
  'You exceeded your current quota, please check your plan and billing details.',
  'The operation was aborted due to timeout',
];

export interface GeneratorPlan {
  /** Call-log rows to produce (attempt rows included). */
  rows: number;
  /** The window ends now and spans this many days. */
  windowStart: number;
  now: number;
  timeZone: string;
  /** Texts the system config keeps (log.chat_records): 'prompt' | 'completion' | 'messages'. */
  keep: readonly string[];
  chunkSize: number;
  rng: Random;
}

/** Money and usage per account, applied to the balances at the end like the ledger would have. */
export class Tally {
  users = new Map<number, number>();
  resellers = new Map<number, number>();
  apps = new Map<number, number>();
  keys = new Map<string, number>();
  groups = new Map<string, number>();
  /** Rows per status. */
  statuses = new Map<number, number>();
  requests = 0;
  spend = 0;
  /** Calls per user and model (the benchmark filters the heaviest user by its favourite model). */
  userModels = new Map<number, Map<string, number>>();

  add<K>(m: Map<K, number>, k: K, v: number) {
    m.set(k, (m.get(k) ?? 0) + v);
  }
}

interface Route {
  agent: ModelAgentRow | undefined;
  keys: ProviderKeyRow[];
}

/** One caller's picks, fixed for the whole run. */
interface Caller {
  user: SeedUser;
  models: Weighted<ModelRow>;
  apps: Weighted<SeedUser['apps'][number]>;
}

/** Local hour of day and whether it is a weekend, for the start of each hour (Intl, so DST-safe). */
function localClock(timeZone: string) {
  const f = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', weekday: 'short', hourCycle: 'h23' });
  return (ms: number) => {
    const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
    return { hour: Number(parts.hour) % 24, weekend: parts.weekday === 'Sat' || parts.weekday === 'Sun' };
  };
}

/** Hour slots of the window with their share of the rows (sums to `rows` exactly). */
function hourSlots(plan: GeneratorPlan): { start: number; end: number; rows: number }[] {
  const { rng } = plan;
  const clock = localClock(plan.timeZone);
  const first = Math.floor(plan.windowStart / HOUR) * HOUR;
  const span = plan.now - first;
  const dayNoise = new Map<number, number>();
  const slots: { start: number; end: number; weight: number }[] = [];
  for (let t = first; t < plan.now; t += HOUR) {
    const start = Math.max(t, plan.windowStart);
    const end = Math.min(t + HOUR, plan.now);
    const { hour, weekend } = clock(t);
    const day = Math.floor(t / DAY);
    if (!dayNoise.has(day)) dayNoise.set(day, 0.85 + rng.next() * 0.3);
    const growth = 0.7 + (0.3 * (t - first)) / span;
    slots.push({ start, end, weight: HOURLY[hour]! * (weekend ? 0.6 : 1) * growth * dayNoise.get(day)! * ((end - start) / HOUR) });
  }
  const total = slots.reduce((s, x) => s + x.weight, 0);
  let cum = 0;
  let given = 0;
  return slots.map((s) => {
    cum += s.weight;
    const upTo = Math.round((plan.rows * cum) / total);
    const rows = upTo - given;
    given = upTo;
    return { start: s.start, end: s.end, rows };
  });
}

/** Endpoint names the gateway logs per family. */
function endpointOf(type: number): string {
  if (type === ModelType.Embedding || type === ModelType.MultimodalEmbedding) return 'embeddings';
  if (type === ModelType.TextToImage || type === ModelType.ImageToImage) return 'images';
  if (type === ModelType.TextToSpeech) return 'speech';
  if (type === ModelType.SpeechToText) return 'transcriptions';
  if (type === ModelType.DigitalHuman) return 'video';
  if (type === ModelType.AudioClone) return 'audio';
  if (type === ModelType.VideoSecondCreation) return 'videosecondcreation';
  return 'chat';
}

/** What one successful (or aborted) call used, cost and took. */
interface Outcome {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  price: Price & { prompt_ratio?: number; completion_ratio?: number };
  conn: number;
  duration: number;
  prompt: string;
  completion: string;
  stream: boolean;
}

function outcomeOf(rng: Random, model: ModelRow, quotas: Partial<ModelQuotas>, discountBp: number, aborted: boolean): Outcome {
  const type = model.type;
  const base = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, stream: false, completion: '' };
  if (type === ModelType.Embedding || type === ModelType.MultimodalEmbedding) {
    const prompt_tokens = rng.logNormal(300, 1, 3, 8000);
    return { ...base, prompt_tokens, price: priceEmbedding({ quotas, type, prompt_tokens, discountBp }), conn: rng.logNormal(180, 0.5, 30, 5000), duration: rng.int(1, 20), prompt: rng.pick(PROMPTS) };
  }
  if (type === ModelType.TextToImage || type === ModelType.ImageToImage) {
    const rows = quotas.image_quota?.generation_quotas ?? [];
    const row = rows.length ? rows[rng.chance(0.7) ? 0 : rng.int(0, rows.length - 1)]! : undefined;
    const n = rng.chance(0.85) ? 1 : rng.int(2, 4);
    const price = priceImage({ quotas, n, size: row ? `${row.width}x${row.height}` : undefined, quality: row?.quality, discountBp });
    return { ...base, price, conn: rng.logNormal(9000 * n, 0.4, 2000, 120_000), duration: rng.int(5, 60), prompt: rng.pick(IMAGE_PROMPTS), completion: `${n} image(s)` };
  }
  if (type === ModelType.TextToSpeech) {
    const text = rng.pick(COMPLETIONS);
    const characters = rng.logNormal(300, 0.9, 10, 4096);
    return { ...base, price: priceSpeech({ quotas, characters, discountBp }), conn: rng.logNormal(500, 0.5, 100, 10_000), duration: rng.logNormal(characters * 8, 0.3, 100, 120_000), prompt: text };
  }
  if (type === ModelType.SpeechToText) {
    const seconds = rng.logNormal(45, 1, 1, 3600);
    return { ...base, price: priceTranscription({ quotas, seconds, discountBp }), conn: rng.logNormal(seconds * 80, 0.4, 300, 300_000), duration: rng.int(1, 30), prompt: '', completion: rng.pick(COMPLETIONS) };
  }
  if (type === ModelType.DigitalHuman || type === ModelType.AudioClone || type === ModelType.VideoSecondCreation) {
    // Task submissions: priced by the seconds of media produced (audio clone: per call).
    const units = type === ModelType.AudioClone ? 1 : rng.int(10, 180);
    return { ...base, price: priceUnitFor({ quotas, type, units, discountBp }), conn: rng.logNormal(800, 0.5, 100, 20_000), duration: rng.int(1, 50), prompt: rng.pick(PROMPTS) };
  }
  // Chat families.
  const reasoning = /reasoner|o3|r1/.test(model.name);
  const stream = rng.chance(0.7);
  const prompt_tokens = rng.logNormal(700, 1.1, 5, 120_000);
  let completion_tokens = rng.logNormal(reasoning ? 1200 : 220, 1, 1, 16_000);
  if (aborted) completion_tokens = Math.max(1, Math.round(completion_tokens * (0.05 + rng.next() * 0.6)));
  const cached_tokens = prompt_tokens > 1024 && rng.chance(0.3) ? Math.floor(prompt_tokens * (0.3 + rng.next() * 0.6)) : 0;
  const price = priceChat({ quotas, type, usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens, cached_tokens }, discountBp });
  const speed = 30 + rng.next() * 90;
  return {
    ...base,
    prompt_tokens,
    completion_tokens,
    cached_tokens,
    stream: stream || aborted,
    price,
    conn: rng.logNormal(reasoning ? 3000 : 650, 0.6, 80, 60_000),
    duration: Math.round((completion_tokens / speed) * 1000),
    prompt: rng.pick(PROMPTS),
    completion: rng.pick(COMPLETIONS),
  };
}

/**
 * Yields the rows chunk by chunk, in request-time order (`created_at` is left 0: the writer stamps
 * each chunk like the ledger stamps a batch). Adds every charge to `tally`.
 */
export function* callLogChunks(plan: GeneratorPlan, users: SeedUser[], catalogue: Catalogue, tally: Tally): Generator<CallLogRow[]> {
  const { rng } = plan;
  const quotasOf = new Map(catalogue.models.map((m) => [m.id, JSON.parse(m.quotas || '{}') as Partial<ModelQuotas>]));
  const modelsById = new Map(catalogue.models.map((m) => [m.id, m]));
  const callers: Caller[] = [];
  for (const user of users) {
    const usable = [...user.models.keys()].map((id) => modelsById.get(id)).filter((m): m is ModelRow => !!m && (catalogue.popularity.get(m.id) ?? 0) > 0);
    if (!usable.length) continue;
    // Each caller has favourites: the global popularity times a personal factor.
    const models = new Weighted(usable, usable.map((m) => catalogue.popularity.get(m.id)! * Math.exp(rng.normal())));
    callers.push({ user, models, apps: new Weighted(user.apps, zipf(user.apps.length, 1.2)) });
  }
  if (!callers.length) throw new Error('no seed user can call any model');
  const byRank = new Weighted(callers, callers.map((c) => 1 / c.user.rank));
  const earliest = callers.reduce((a, b) => (a.user.created_at <= b.user.created_at ? a : b));
  const keepPrompt = plan.keep.includes('prompt');
  const keepCompletion = plan.keep.includes('completion');
  const keepMessages = plan.keep.includes('messages');

  let chunk: CallLogRow[] = [];
  for (const slot of hourSlots(plan)) {
    const times = Array.from({ length: Math.max(0, slot.rows) }, () => slot.start + Math.floor(rng.next() * (slot.end - slot.start))).sort((a, b) => a - b);
    let left = times.length;
    for (let i = 0; i < times.length && left > 0; i++) {
      const reqTime = times[i]!;
      let caller = byRank.pick(rng);
      for (let tries = 0; caller.user.created_at > reqTime && tries < 20; tries++) caller = byRank.pick(rng);
      if (caller.user.created_at > reqTime) caller = earliest;
      const { user } = caller;
      const model = caller.models.pick(rng);
      const group: GroupRecord | null = user.models.get(model.id) ?? null;
      const discountBp = group?.discount_bp ?? 10_000;
      const app = caller.apps.pick(rng);
      const key = rng.pick(app.keys);
      const routes: Route[] = (catalogue.agentsOf.get(model.id) ?? []).map((a) => ({ agent: a.agent, keys: a.keys }));
      const route = routes.length ? rng.pick(routes) : { agent: undefined, keys: [] };

      // Fate of the request: attempts before the last and how the last one ends.
      const r = rng.next();
      let retries = 0;
      let final: number = LogStatus.Success;
      if (r < 0.015) retries = rng.chance(0.8) ? 1 : 2;
      else if (r < 0.035) {
        final = LogStatus.Failed;
        retries = rng.chance(0.4) ? 1 : 0;
      }
      // Never more rows than the hour was given: the last request of a slot drops its retries.
      retries = Math.min(retries, left - 1);
      left -= retries + 1;
      const isChat = endpointOf(model.type) === 'chat';
      if (final === LogStatus.Success && isChat && rng.chance(0.01)) final = LogStatus.Aborted;

      const out = outcomeOf(rng, model, quotasOf.get(model.id) ?? {}, discountBp, final === LogStatus.Aborted);
      const traceId = newTraceId(reqTime);
      const keyOffset = rng.int(0, 10);
      let elapsed = rng.int(0, 3);
      for (let attempt = 0; attempt <= retries; attempt++) {
        const last = attempt === retries;
        const status = last ? final : LogStatus.Retry;
        const ok = status === LogStatus.Success || status === LogStatus.Aborted;
        const conn = ok ? out.conn : rng.logNormal(status === LogStatus.Failed ? 2000 : 900, 1, 20, 60_000);
        const took = ok ? conn + out.duration : conn;
        elapsed += took;
        const pk = route.keys.length ? route.keys[(keyOffset + attempt) % route.keys.length] : undefined;
        const charged = ok ? out.price.quota : 0;
        const prompt = keepPrompt ? out.prompt : '';
        chunk.push({
          id: newId(),
          trace_id: traceId,
          attempt,
          user_id: user.user_id,
          app_id: app.app_id,
          rid: user.rid,
          type: model.type,
          stream: out.stream ? 1 : 0,
          is_enable_model_agent: route.agent ? 1 : 0,
          is_retry: attempt > 0 ? 1 : 0,
          retry_count: attempt,
          is_smart_match: 0,
          status,
          prompt_tokens: ok ? out.prompt_tokens : 0,
          completion_tokens: ok ? out.completion_tokens : 0,
          cached_tokens: ok ? out.cached_tokens : 0,
          cache_write_tokens: 0,
          reasoning_tokens: 0,
          total_tokens: ok ? out.prompt_tokens + out.completion_tokens : 0,
          total_price: charged,
          discount_bp: discountBp,
          // Seeded prices ignore floors: the rows carry none, so their margin is not measured.
          floor_bp: 0,
          is_limit_quota: 1,
          conn_time: conn,
          duration: elapsed - conn,
          total_time: elapsed,
          internal_time: 0,
          req_time: reqTime,
          created_at: 0,
          prompt_ratio: ok ? (out.price.prompt_ratio ?? 0) : 0,
          completion_ratio: ok ? (out.price.completion_ratio ?? 0) : 0,
          line_items: ok ? JSON.stringify(out.price.detail.items) : '',
          endpoint: endpointOf(model.type),
          creator: key.key_mask,
          app_key_id: key.id,
          corp: model.corp,
          corp_name: catalogue.corpNames.get(model.corp) ?? '',
          group_id: group?.id ?? '',
          group_name: group?.name ?? '',
          model_id: model.id,
          name: model.name,
          model: model.name,
          real_model_id: model.id,
          real_model: model.model,
          model_agent_id: route.agent?.id ?? '',
          model_agent_name: route.agent?.name ?? '',
          key_id: pk?.id ?? '',
          key_mask: pk?.key_mask ?? '',
          client_ip: user.ips[attempt % user.ips.length]!,
          remote_ip: user.ips[attempt % user.ips.length]!,
          err_msg: ok ? (status === LogStatus.Aborted ? 'client closed the connection' : '') : rng.pick(status === LogStatus.Failed ? FINAL : RETRYABLE),
          prompt,
          completion: ok && keepCompletion ? out.completion : '',
          messages: keepMessages ? JSON.stringify([{ role: 'user', content: out.prompt }]) : '',
        });
        tally.add(tally.statuses, status, 1);
        if (charged > 0) {
          tally.add(tally.users, user.user_id, charged);
          if (user.rid) tally.add(tally.resellers, user.rid, charged);
          tally.add(tally.apps, app.app_id, charged);
          tally.add(tally.keys, key.id, charged);
          if (group) tally.add(tally.groups, group.id, charged);
          tally.spend += charged;
        }
      }
      tally.requests++;
      let mine = tally.userModels.get(user.user_id);
      if (!mine) tally.userModels.set(user.user_id, (mine = new Map()));
      tally.add(mine, model.name, 1);
      if (chunk.length >= plan.chunkSize) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length) yield chunk;
}
