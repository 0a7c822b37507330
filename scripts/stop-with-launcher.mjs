// @ts-check
// `npm start` runs this script in a shell (`sh -c "node … scripts/start.mjs"`). On SIGTERM or SIGINT npm
// passes the signal to that shell, and the usual /bin/sh (dash) dies of it without passing it on: the
// server would run on, orphaned, never draining its streams or writing its last charges, until the
// SIGKILL that follows. So a server started by npm takes the end of the shell it was started from as
// that signal, and shuts down as main.ts does on SIGTERM.

/** Under npm (POSIX), raises SIGTERM in this process once its parent process is gone. */
export function stopWithLauncher(everyMs = 200) {
  if (!process.env.npm_lifecycle_event || process.platform === 'win32') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    // Orphans are adopted by init (or a subreaper): the parent id changes.
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, everyMs);
  timer.unref();
}
