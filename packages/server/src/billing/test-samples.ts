// Sample texts for the token tests (estimate must stay above the real count for each of them).

/** Deterministic pseudo-random bytes (LCG), so the samples don't change between runs. */
function bytes(n: number, seed = 42): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out[i] = x >> 16;
  }
  return out;
}

const english =
  'The gateway forwards each request to one of several upstream providers, retries on transient errors and bills the caller in integer quota units. ' +
  "When a provider doesn't report usage, the gateway counts tokens locally; when a client aborts a stream, the partial answer is still billed. " +
  'Prices are entered in dollars per thousand tokens and stored as ratios; a group discount applies on top, rounded up. ';

export const SAMPLES: Record<string, string> = {
  english: english.repeat(6),
  chinese:
    '人工智能网关负责把客户端的请求转发给不同的模型提供商，并按照实际使用的令牌数量进行计费。余额不足时请求会被拒绝，' +
    '管理员可以在控制台中为每个模型设置价格、分组折扣和限流规则。流式响应被中断时，已经生成的部分仍然会被计费。'.repeat(4),
  traditional: '閘道會將每個請求轉發給上游供應商，並依照實際使用的權杖數量計費。當餘額不足時，請求會被拒絕並回傳錯誤訊息。'.repeat(4),
  japanese: 'これは日本語のテスト文です。ゲートウェイはリクエストを上流のプロバイダーに転送し、使用量に応じて料金を計算します。残高が不足している場合、リクエストは拒否されます。'.repeat(4),
  korean: '안녕하세요. 이것은 한국어 테스트 문장입니다. 게이트웨이는 요청을 전달하고 사용량에 따라 요금을 부과합니다. 잔액이 부족하면 요청이 거부됩니다.'.repeat(4),
  german: 'Das Gateway leitet jede Anfrage an einen von mehreren Anbietern weiter, wiederholt sie bei vorübergehenden Fehlern und rechnet in ganzzahligen Kontingenteinheiten ab. '.repeat(4),
  russian: 'Шлюз перенаправляет каждый запрос одному из нескольких поставщиков, повторяет его при временных ошибках и выставляет счёт в целых единицах квоты. '.repeat(4),
  mixed: 'GPT-4o 的价格是每百万 tokens $2.50，缓存命中 $1.25。Price: ¥18/1M tokens (≈ $2.5). 請參考 https://example.com/pricing?lang=zh-TW#gpt-4o。'.repeat(4),
  code: [
    'export function priceChat({ quotas, type, usage, discountBp }: PriceChatInput): ChatPrice {',
    '  const block = chatBlock(quotas, type);',
    "  if (!block) return { ...unpriced(discountBp), prompt_ratio: 0, completion_ratio: 0 };",
    '  for (let i = 0; i < usage.length; i++) { total += usage[i] * 2 ?? 0; }',
    '  return items.map((x) => x?.value).filter(Boolean).reduce((a, b) => a + b, 0);',
    '}',
  ]
    .join('\n')
    .repeat(4),
  json: JSON.stringify({
    id: 'chatcmpl-9xQ2vZ8kLmN3pR7sT1uW',
    object: 'chat.completion',
    created: 1_727_000_000,
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help?' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1234, completion_tokens: 567, total_tokens: 1801, prompt_tokens_details: { cached_tokens: 1024 } },
  }).repeat(3),
  base64: bytes(1500).toString('base64'),
  hex: bytes(400, 7).toString('hex'),
  uuids: Array.from({ length: 30 }, (_, i) => {
    const h = bytes(16, i + 1).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }).join(' '),
  numbers: Array.from({ length: 300 }, (_, i) => (i * 37) % 10).join(','),
  punctuation: '!@#$%^&*()_+{}|:"<>?~`-=[];\',./'.repeat(10),
  emoji: '😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘👨‍👩‍👧‍👦🇯🇵🇨🇳'.repeat(3),
  letters: 'a b c d e f g h i j k l m n o p q r s t u v w x y z '.repeat(4),
  markdown: '| Model | Input $/1M | Output $/1M |\n|---|---:|---:|\n| gpt-4o | 2.50 | 10.00 |\n| gpt-4o-mini | 0.15 | 0.60 |\n\n- **Bold** _italic_ `code`\n'.repeat(4),
  whitespace: '\n\n\n    indented\n\t\ttabs\n' + ' '.repeat(64) + '\n',
};
