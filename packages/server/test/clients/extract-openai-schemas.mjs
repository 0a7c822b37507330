#!/usr/bin/env node
// Extracts from OpenAI's published OpenAPI description (github.com/openai/openai-openapi, openapi.json,
// MIT) the response schemas that openapi-conformance.test.ts validates against, with every schema they
// reference, and nothing else: no npm package ships the description, and the whole of it is ~3 MB.
// Descriptions, examples and titles are dropped; every validating keyword is kept as published.
//
//   node packages/server/test/clients/extract-openai-schemas.mjs path/to/openapi.json <commit> > packages/server/test/clients/openai-schemas.json
import fs from 'node:fs';

const ROOTS = [
  'CreateChatCompletionResponse',
  'CreateChatCompletionStreamResponse',
  'CreateCompletionResponse',
  'ListModelsResponse',
  'Model',
  'CreateEmbeddingResponse',
  'CreateModerationResponse',
  'ImagesResponse',
  'Response',
  'ResponseStreamEvent',
  'ResponseItemList',
  'ErrorResponse',
];
const DROPPED = new Set(['description', 'example', 'examples', 'title', 'x-oaiMeta', 'x-oaiTypeLabel', 'x-oaiExpandable']);

const [file, commit = ''] = process.argv.slice(2);
if (!file) throw new Error('usage: extract-openai-schemas.mjs openapi.json [commit]');
const spec = JSON.parse(fs.readFileSync(file, 'utf8'));
const all = spec.components.schemas;

const refsOf = (node, out) => {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.add(v.split('/').at(-1));
      else refsOf(v, out);
    }
  return out;
};
const strip = (node) =>
  Array.isArray(node) ? node.map(strip) : node && typeof node === 'object' ? Object.fromEntries(Object.entries(node).filter(([k]) => !DROPPED.has(k)).map(([k, v]) => [k, strip(v)])) : node;

const kept = new Set();
const queue = [...ROOTS];
while (queue.length) {
  const name = queue.pop();
  if (kept.has(name)) continue;
  if (!all[name]) throw new Error(`no schema ${name}`);
  kept.add(name);
  queue.push(...refsOf(all[name], new Set()));
}

// One schema a line: small diffs when the description is updated.
const lines = [...kept].sort().map((name) => `    ${JSON.stringify(name)}: ${JSON.stringify(strip(all[name]))}`);
const source = { repository: 'https://github.com/openai/openai-openapi', file: 'openapi.json', commit, openapi: spec.openapi, version: spec.info.version, license: 'MIT' };
process.stdout.write(`{\n  "source": ${JSON.stringify(source)},\n  "roots": ${JSON.stringify(ROOTS)},\n  "schemas": {\n${lines.join(',\n')}\n  }\n}\n`);
