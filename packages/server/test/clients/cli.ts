// The coding-agent CLIs (Codex, Claude Code, Gemini CLI), run for real against a local gateway.
// They ship platform binaries of 100–400 MB, so they stay out of package.json: the first run installs
// the pinned versions with npm into a cache folder outside the repository, one folder per version set,
// built aside and renamed into place so two concurrent runs never see half an install.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const CLI_VERSIONS = {
  '@openai/codex': '0.169.0',
  '@anthropic-ai/claude-code': '2.1.330',
  '@google/gemini-cli': '0.61.0',
} as const;

export type CliName = 'codex' | 'claude' | 'gemini';

const root = process.env.FASTGATE_CLIENTS_DIR || path.join(os.homedir(), '.cache', 'fastgate-clients');
const folder = path.join(root, createHash('sha256').update(JSON.stringify(CLI_VERSIONS)).digest('hex').slice(0, 12));
const bin = (name: CliName) => path.join(folder, 'node_modules', '.bin', name);

/** The CLIs' executables, installed first when missing (a few seconds from npm's cache, ~260 MB cold). */
export async function installClis(): Promise<Record<CliName, string>> {
  const names: CliName[] = ['codex', 'claude', 'gemini'];
  if (!names.every((n) => fs.existsSync(bin(n)))) {
    fs.mkdirSync(root, { recursive: true });
    const staging = fs.mkdtempSync(path.join(root, 'staging-'));
    fs.writeFileSync(path.join(staging, 'package.json'), '{"private":true}\n');
    const specs = Object.entries(CLI_VERSIONS).map(([pkg, version]) => `${pkg}@${version}`);
    try {
      await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', staging, ...specs], { timeout: 300_000 });
      fs.renameSync(staging, folder);
    } catch (err) {
      fs.rmSync(staging, { recursive: true, force: true });
      // Another run got there first: theirs is as good.
      if (!names.every((n) => fs.existsSync(bin(n)))) throw err;
    }
  }
  return { codex: bin('codex'), claude: bin('claude'), gemini: bin('gemini') };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a CLI non-interactively in its own process group (stdin closed, a private HOME and working
 * folder), killing the whole group on timeout: the CLIs start helpers that would outlive a plain kill.
 */
export function runCli(file: string, args: string[], opts: { env: Record<string, string>; cwd: string; timeoutMs: number }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: opts.cwd,
      // Only what a bare machine has, plus ours: no proxy, no real credentials from the runner's env.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost', CI: '1', TERM: 'dumb', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // Whatever the CLI left running in its group goes with it.
      killGroup();
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** A fresh HOME holding each CLI's offline configuration for one gateway, model and key. */
export function cliHome(opts: { gateway: string; model: string; key: string }): { home: string; cwd: string; env: Record<CliName, Record<string, string>>; cleanup(): void } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-cli-home-'));
  const cwd = path.join(home, 'work');
  const tmp = path.join(home, 'tmp');
  fs.mkdirSync(cwd);
  fs.mkdirSync(tmp);
  const codexHome = path.join(home, '.codex');
  fs.mkdirSync(codexHome);
  fs.writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(opts.gateway, opts.model));
  fs.mkdirSync(path.join(home, '.gemini'));
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(GEMINI_SETTINGS, null, 2));
  const base = { HOME: home, TMPDIR: tmp };
  return {
    home,
    cwd,
    env: {
      codex: { ...base, CODEX_HOME: codexHome, GATEWAY_API_KEY: opts.key },
      claude: {
        ...base,
        ANTHROPIC_BASE_URL: opts.gateway,
        ANTHROPIC_AUTH_TOKEN: opts.key,
        ANTHROPIC_MODEL: opts.model,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: opts.model,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
      gemini: { ...base, GOOGLE_GEMINI_BASE_URL: opts.gateway, GEMINI_API_KEY: opts.key, GEMINI_TELEMETRY_ENABLED: 'false', GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    },
    cleanup: () => fs.rmSync(home, { recursive: true, force: true }),
  };
}

/** The command line that asks each CLI one question and prints the answer. */
export function cliArgs(name: CliName, prompt: string, model: string): string[] {
  if (name === 'codex') return ['exec', '--strict-config', '--skip-git-repo-check', '--color', 'never', prompt];
  if (name === 'claude') return ['-p', prompt];
  return ['-p', prompt, '-m', model];
}

/** ~/.codex/config.toml (README "Use it with…" shows the same). */
export function codexConfig(gateway: string, model: string): string {
  return `model = "${model}"
model_provider = "fastgate"
check_for_update_on_startup = false
web_search = "disabled"

[model_providers.fastgate]
name = "FastGate"
base_url = "${gateway}/v1"
env_key = "GATEWAY_API_KEY"
wire_api = "responses"

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"

[features]
plugins = false
remote_plugin = false
apps = false
`;
}

/** ~/.gemini/settings.json (README "Use it with…" shows the same). */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};
