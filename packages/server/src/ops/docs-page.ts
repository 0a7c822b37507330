// GET /api/docs/ui: a small readable viewer of the OpenAPI document, self-contained (no CDN, no
// package): it fetches /api/docs and lists the operations by tag with their roles, parameters and
// schemas. Text goes in with textContent only, so nothing in the document can become markup.
export const DOCS_PAGE_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'";

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>FastGate API</title>
<style>
  body { font: 14px/1.5 system-ui, sans-serif; margin: 0; color: #1d2129; background: #f7f8fa; }
  header { background: #165dff; color: #fff; padding: 16px 24px; }
  header h1 { margin: 0; font-size: 20px; }
  header p { margin: 4px 0 0; opacity: .9; }
  main { max-width: 1100px; margin: 0 auto; padding: 16px 24px; }
  input { width: 100%; padding: 8px; font-size: 14px; box-sizing: border-box; margin-bottom: 12px; }
  h2 { font-size: 16px; margin: 24px 0 8px; border-bottom: 1px solid #e5e6eb; padding-bottom: 4px; }
  details { background: #fff; border: 1px solid #e5e6eb; border-radius: 4px; margin: 6px 0; }
  summary { cursor: pointer; padding: 6px 10px; display: flex; gap: 10px; align-items: baseline; }
  .m { font: 600 12px monospace; min-width: 44px; text-align: center; border-radius: 3px; padding: 1px 4px; color: #fff; }
  .GET { background: #00b42a; } .POST { background: #165dff; }
  .p { font-family: monospace; }
  .r { margin-left: auto; color: #86909c; font-size: 12px; }
  .body { padding: 4px 12px 12px; border-top: 1px solid #f2f3f5; }
  pre { background: #f7f8fa; padding: 8px; overflow: auto; max-height: 400px; font-size: 12px; }
</style>
</head>
<body>
<header><h1>FastGate API</h1><p id="intro">Loading /api/docs …</p></header>
<main><input id="filter" placeholder="Filter by path, tag or role" autofocus><div id="ops"></div></main>
<script>
(async () => {
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  const doc = await (await fetch('/api/docs')).json();
  document.getElementById('intro').textContent = doc.info.description + ' (OpenAPI ' + doc.openapi + ': GET /api/docs)';
  const resolve = (s) => s && s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s;
  const byTag = new Map();
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) {
    const tag = (op.tags || ['other'])[0];
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag).push({ path, method: method.toUpperCase(), op });
  }
  const root = document.getElementById('ops');
  const rows = [];
  for (const tag of [...byTag.keys()].sort()) {
    const section = el('section'); section.append(el('h2', '', tag)); root.append(section);
    for (const { path, method, op } of byTag.get(tag)) {
      const d = el('details'); const s = el('summary');
      const roles = op['x-public'] ? 'public' : op['x-roles'] ? op['x-roles'].join(', ') : (op.security && op.security.length ? 'app key' : 'public');
      s.append(el('span', 'm ' + method, method), el('span', 'p', path), el('span', 'r', roles));
      d.append(s);
      const body = el('div', 'body');
      if (op.description) body.append(el('p', '', op.description));
      if (op.parameters) body.append(el('h4', '', 'Parameters'), el('pre', '', JSON.stringify(op.parameters, null, 2)));
      const req = op.requestBody && Object.entries(op.requestBody.content)[0];
      if (req) body.append(el('h4', '', 'Request body (' + req[0] + ')'), el('pre', '', JSON.stringify(resolve(req[1].schema), null, 2)));
      const ok = op.responses['200'] && op.responses['200'].content && Object.values(op.responses['200'].content)[0];
      if (ok) body.append(el('h4', '', 'Answer'), el('pre', '', JSON.stringify(resolve(ok.schema), null, 2)));
      d.append(body); section.append(d);
      rows.push({ d, section, text: (tag + ' ' + method + ' ' + path + ' ' + roles).toLowerCase() });
    }
  }
  document.getElementById('filter').addEventListener('input', (e) => {
    const q = e.target.value.toLowerCase();
    for (const r of rows) r.d.hidden = !!q && !r.text.includes(q);
    for (const s of root.children) s.hidden = [...s.querySelectorAll('details')].every((d) => d.hidden);
  });
})().catch((err) => { document.getElementById('intro').textContent = 'Could not load /api/docs: ' + err; });
</script>
</body>
</html>
`;
