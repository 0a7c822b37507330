// The gateway's part of the OpenAPI document (/v1, OpenAI- and Anthropic-compatible), written by hand:
// its endpoints read bodies with their own checks, not zod schemas (the task body excepted). Only the
// main fields are described; every endpoint passes unknown fields through to the upstream.
import { TASK_KINDS, taskSubmitSchema } from '@fastgate/core/entities/task';
import { z } from 'zod';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string): Schema => (description ? { type: 'string', description } : { type: 'string' });
const int = (description?: string): Schema => (description ? { type: 'integer', description } : { type: 'integer' });
const num: Schema = { type: 'number' };
const bool: Schema = { type: 'boolean' };
const arr = (items: Schema): Schema => ({ type: 'array', items });
const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({ type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: true });

export const gatewaySchemas: Record<string, Schema> = {
  GatewayError: obj({ error: obj({ message: str(), type: str('invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error, server_error, …'), code: str(), param: { type: ['string', 'null'] } }, ['message', 'type']) }, ['error']),
  Usage: obj({ prompt_tokens: int(), completion_tokens: int(), total_tokens: int() }),
  ChatMessage: obj({ role: { type: 'string', enum: ['system', 'developer', 'user', 'assistant', 'tool'] }, content: { oneOf: [str(), arr(obj({ type: str() })), { type: 'null' }] }, name: str(), tool_calls: arr(obj({})), tool_call_id: str() }, ['role']),
  ChatCompletionRequest: obj(
    {
      model: str('A model name of the catalogue the key may use.'),
      messages: { ...arr(ref('ChatMessage')), minItems: 1 },
      stream: { ...bool, description: 'Answer as server-sent events (`data: {chunk}` … `data: [DONE]`).' },
      stream_options: obj({ include_usage: bool }),
      max_tokens: int(),
      max_completion_tokens: int(),
      temperature: num,
      top_p: num,
      n: int(),
      stop: { oneOf: [str(), arr(str())] },
      tools: arr(obj({})),
      tool_choice: {},
      response_format: obj({}),
    },
    ['model', 'messages'],
  ),
  ChatCompletion: obj({
    id: str(),
    object: { const: 'chat.completion' },
    created: int(),
    model: str(),
    choices: arr(obj({ index: int(), message: ref('ChatMessage'), finish_reason: str() })),
    usage: ref('Usage'),
  }),
  CompletionRequest: obj({ model: str(), prompt: { oneOf: [str(), arr(str())] }, stream: bool, max_tokens: int(), temperature: num }, ['model', 'prompt']),
  Completion: obj({ id: str(), object: { const: 'text_completion' }, created: int(), model: str(), choices: arr(obj({ index: int(), text: str(), finish_reason: str() })), usage: ref('Usage') }),
  EmbeddingRequest: obj({ model: str(), input: { oneOf: [str(), arr(str()), arr(int()), arr(arr(int()))] }, encoding_format: { type: 'string', enum: ['float', 'base64'] }, dimensions: int() }, ['model', 'input']),
  EmbeddingList: obj({ object: { const: 'list' }, data: arr(obj({ object: { const: 'embedding' }, index: int(), embedding: { oneOf: [arr(num), str()] } })), model: str(), usage: ref('Usage') }),
  Model: obj({ id: str(), object: { const: 'model' }, created: int(), owned_by: str() }, ['id', 'object', 'created', 'owned_by']),
  ModelList: obj({ object: { const: 'list' }, data: arr(ref('Model')) }),
  ImageRequest: obj({ model: str(), prompt: str(), n: int(), size: str('e.g. 1024x1024'), quality: str(), response_format: { type: 'string', enum: ['url', 'b64_json'] }, stream: { ...bool, description: 'true is refused with 400 unsupported_parameter (streamed images are not relayed).' } }, ['model', 'prompt']),
  ImageEditRequest: obj(
    {
      image: { oneOf: [{ type: 'string', contentMediaType: 'application/octet-stream' }, arr({ type: 'string', contentMediaType: 'application/octet-stream' })], description: 'One image, or several as `image[]` parts.' },
      mask: { type: 'string', contentMediaType: 'application/octet-stream' },
      model: str(),
      prompt: str(),
      n: int(),
      size: str('e.g. 1024x1024'),
      quality: str(),
      response_format: { type: 'string', enum: ['url', 'b64_json'] },
      stream: { ...bool, description: 'true is refused with 400 unsupported_parameter (streamed images are not relayed).' },
    },
    ['image', 'model', 'prompt'],
  ),
  ImageList: obj({ created: int(), data: arr(obj({ url: str(), b64_json: str(), revised_prompt: str() })) }),
  SpeechRequest: obj({ model: str(), input: str(), voice: str(), response_format: str('mp3, opus, aac, flac, wav, pcm'), speed: num }, ['model', 'input']),
  TranscriptionRequest: obj({ file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The audio file.' }, model: str(), language: str(), prompt: str(), response_format: str('json, text, srt, verbose_json, vtt'), temperature: num }, ['file', 'model']),
  Transcription: obj({ text: str() }, ['text']),
  TranslationRequest: obj({ file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The audio file.' }, model: str(), prompt: str(), response_format: str('json, text, srt, verbose_json, vtt'), temperature: num }, ['file', 'model']),
  RerankRequest: obj(
    {
      model: str('A reranker of the catalogue (an embedding-type model).'),
      query: str(),
      documents: { ...arr({ oneOf: [str(), obj({ text: str() }, ['text'])] }), minItems: 1, maxItems: 1000 },
      top_n: { ...int('How many results to return (all by default).'), minimum: 1 },
      return_documents: bool,
    },
    ['model', 'query', 'documents'],
  ),
  RerankResult: obj({
    id: str(),
    model: str(),
    results: arr(obj({ index: int('Position in `documents`.'), relevance_score: num, document: obj({ text: str() }) }, ['index', 'relevance_score'])),
    usage: obj({ total_tokens: int() }),
    meta: obj({ billed_units: obj({ search_units: int() }) }),
  }),
  ModerationRequest: obj({ model: str(), input: { oneOf: [str(), arr(str())] } }, ['input']),
  ModerationResult: obj({ id: str(), model: str(), results: arr(obj({ flagged: bool, categories: obj({}), category_scores: obj({}) })) }),
  AnthropicMessageRequest: obj(
    {
      model: str(),
      max_tokens: int(),
      system: { oneOf: [str(), arr(obj({ type: str(), text: str() }))] },
      messages: arr(obj({ role: { type: 'string', enum: ['user', 'assistant'] }, content: { oneOf: [str(), arr(obj({ type: str() }))] } }, ['role', 'content'])),
      stream: bool,
      temperature: num,
      tools: arr(obj({})),
    },
    ['model', 'max_tokens', 'messages'],
  ),
  AnthropicMessage: obj({ id: str(), type: { const: 'message' }, role: { const: 'assistant' }, model: str(), content: arr(obj({ type: str(), text: str() })), stop_reason: str(), usage: obj({ input_tokens: int(), output_tokens: int() }) }),
  AnthropicCountTokensRequest: obj(
    {
      model: str(),
      system: { oneOf: [str(), arr(obj({ type: str(), text: str() }))] },
      messages: arr(obj({ role: { type: 'string', enum: ['user', 'assistant'] }, content: { oneOf: [str(), arr(obj({ type: str() }))] } }, ['role', 'content'])),
      tools: arr(obj({})),
    },
    ['model', 'messages'],
  ),
  AnthropicTokenCount: obj({ input_tokens: int() }, ['input_tokens']),
  AnthropicError: obj({ type: { const: 'error' }, error: obj({ type: str(), message: str() }) }),
  TaskSubmit: z.toJSONSchema(taskSubmitSchema, { io: 'input', unrepresentable: 'any' }) as Schema,
  Task: obj({
    id: str('task_…'),
    object: { const: 'task' },
    kind: { type: 'string', enum: [...TASK_KINDS] },
    model: str(),
    status: { type: 'string', enum: ['queued', 'synthesizing', 'completed', 'failed', 'timeout'] },
    status_code: int('1 queued, 2 synthesizing, 3 completed, -1 failed, -2 timed out'),
    audio_url: str(),
    video_url: str(),
    video_pic: str(),
    video_time: int('seconds'),
    created_at: int('epoch seconds'),
    completed_at: { type: ['integer', 'null'] },
    error: { oneOf: [obj({ message: str() }), { type: 'null' }] },
  }),
};
delete gatewaySchemas.TaskSubmit!.$schema;

const json = (schema: Schema) => ({ 'application/json': { schema } });
const sse = { 'text/event-stream': { schema: { type: 'string', description: 'Server-sent events when `stream` is true.' } } };
const errors = (anthropic = false) => {
  const body = { content: json(ref(anthropic ? 'AnthropicError' : 'GatewayError')) };
  return {
    '400': { description: 'Invalid request', ...body },
    '401': { description: 'Missing or invalid app key', ...body },
    '403': { description: 'Key, app or account disabled, expired, or IP not allowed', ...body },
    '404': { description: 'Unknown model or URL', ...body },
    '413': { description: 'Request body too large', ...body },
    '429': { description: 'Rate limit reached or quota used up (Retry-After on rate limits)', ...body },
    '502': { description: 'Every upstream attempt failed', ...body },
  };
};

const op = (summary: string, request: Schema | undefined, ok: Record<string, unknown>, opts: { anthropic?: boolean; requestType?: string; description?: string } = {}) => ({
  tags: ['gateway'],
  summary,
  ...(opts.description ? { description: opts.description } : {}),
  security: [{ appKey: [] }, { appKeyHeader: [] }],
  ...(request ? { requestBody: { required: true, content: { [opts.requestType ?? 'application/json']: { schema: request } } } } : {}),
  responses: { '200': { description: 'OK', content: ok }, ...errors(opts.anthropic) },
});

const traceNote = 'Every answer carries `x-trace-id` and `x-request-id`, both the id of its call-log rows.';

export const gatewayPaths: Record<string, Record<string, unknown>> = {
  '/v1/chat/completions': { post: { operationId: 'gatewayChatCompletions', ...op('Chat completion (JSON or SSE stream), any provider family', ref('ChatCompletionRequest'), { ...json(ref('ChatCompletion')), ...sse }, { description: traceNote }) } },
  '/v1/completions': { post: { operationId: 'gatewayCompletions', ...op('Text completion (legacy)', ref('CompletionRequest'), { ...json(ref('Completion')), ...sse }) } },
  '/v1/embeddings': { post: { operationId: 'gatewayEmbeddings', ...op('Embeddings', ref('EmbeddingRequest'), json(ref('EmbeddingList'))) } },
  '/v1/models': { get: { operationId: 'gatewayModels', ...op('Models the key may use', undefined, json(ref('ModelList'))) } },
  '/v1/models/{model}': {
    get: {
      operationId: 'gatewayRetrieveModel',
      ...op('One model the key may use (404 model_not_found otherwise)', undefined, json(ref('Model'))),
      parameters: [{ name: 'model', in: 'path', required: true, description: 'A model name as listed (it may contain slashes).', schema: { type: 'string' } }],
    },
  },
  '/v1/images/generations': { post: { operationId: 'gatewayImages', ...op('Image generation', ref('ImageRequest'), json(ref('ImageList'))) } },
  '/v1/audio/speech': { post: { operationId: 'gatewaySpeech', ...op('Text to speech (the audio bytes, with the upstream content type)', ref('SpeechRequest'), { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } }) } },
  '/v1/audio/transcriptions': {
    post: { operationId: 'gatewayTranscriptions', ...op('Speech to text (multipart upload)', ref('TranscriptionRequest'), { ...json(ref('Transcription')), 'text/plain': { schema: str() } }, { requestType: 'multipart/form-data' }) },
  },
  '/v1/images/edits': { post: { operationId: 'gatewayImageEdits', ...op('Image edit (multipart upload), billed like image generation', ref('ImageEditRequest'), json(ref('ImageList')), { requestType: 'multipart/form-data' }) } },
  '/v1/audio/translations': {
    post: { operationId: 'gatewayTranslations', ...op('Speech to English text (multipart upload), billed like transcriptions', ref('TranslationRequest'), { ...json(ref('Transcription')), 'text/plain': { schema: str() } }, { requestType: 'multipart/form-data' }) },
  },
  '/v1/rerank': {
    post: {
      operationId: 'gatewayRerank',
      ...op('Rerank documents by relevance to a query (Cohere/Jina shape)', ref('RerankRequest'), json(ref('RerankResult')), {
        description: 'OpenAI-family hosts that serve /v1/rerank only. Billed by the model\'s prompt price on the tokens the upstream reports (counted when it reports none), or, for a fixed-price model, its fixed quota per search unit (up to 100 documents).',
      }),
    },
  },
  '/v1/moderations': { post: { operationId: 'gatewayModerations', ...op('Moderation', ref('ModerationRequest'), json(ref('ModerationResult'))) } },
  '/v1/messages': { post: { operationId: 'gatewayAnthropicMessages', ...op('Anthropic Messages API (JSON or SSE stream); errors in the Anthropic shape', ref('AnthropicMessageRequest'), { ...json(ref('AnthropicMessage')), ...sse }, { anthropic: true }) } },
  '/v1/messages/count_tokens': {
    post: {
      operationId: 'gatewayAnthropicCountTokens',
      ...op('Input tokens of a Messages body; errors in the Anthropic shape', ref('AnthropicCountTokensRequest'), json(ref('AnthropicTokenCount')), {
        anthropic: true,
        description: 'Anthropic-family models: the upstream counts. Others: the gateway counts the converted prompt with its tokenizer. Not billed, not logged; rate limited as a request.',
      }),
    },
  },
  '/v1/tasks/{task}': {
    post: {
      operationId: 'gatewaySubmitTask',
      ...op('Submit an async task; `task` is its kind', ref('TaskSubmit'), json(ref('Task')), { description: 'Kinds: audio (audio clone), video (digital human), videosecondcreation. The estimate is charged at once; the difference is settled when the task ends.' }),
      parameters: [{ name: 'task', in: 'path', required: true, description: 'The task kind.', schema: { type: 'string', enum: [...TASK_KINDS] } }],
    },
    get: {
      operationId: 'gatewayGetTask',
      ...op('Where a task stands; `task` is its id (task_…)', undefined, json(ref('Task'))),
      parameters: [{ name: 'task', in: 'path', required: true, description: 'The task id answered at submission.', schema: { type: 'string' } }],
    },
  },
};
