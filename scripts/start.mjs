// `npm start`: (re)builds what is missing or older than its sources — the console (Vite) and the
// server bundle (esbuild) — then runs the server in this process.
import { pathToFileURL } from 'node:url';
import { BUNDLE, ensureBundle, ensureConsole } from './fresh-builds.mjs';

try {
  ensureConsole();
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
await ensureBundle();
await import(pathToFileURL(BUNDLE).href);
