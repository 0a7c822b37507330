// `npm start`: (re)builds what is missing or older than its sources — the console (Vite) and the
// server bundle (esbuild) — then runs the server in this process, which stops (as on SIGTERM) when the
// shell npm started it from is gone (stop-with-launcher.mjs says why).
import { pathToFileURL } from 'node:url';
import { BUNDLE, ensureBundle, ensureConsole } from './fresh-builds.mjs';
import { stopWithLauncher } from './stop-with-launcher.mjs';

try {
  ensureConsole();
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
await ensureBundle();
stopWithLauncher();
await import(pathToFileURL(BUNDLE).href);
