/**
 * Opens the dashboard in the user's browser (unless --no-open). Best effort: on a machine without
 * a desktop (CI, SSH, containers) there is nothing to open, and the banner's URL is enough.
 */
import { spawn } from 'node:child_process';

export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const [command, args] =
    platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {}); // no opener installed: the printed URL still works
    child.unref();
  } catch {
    // spawn can throw synchronously on exotic platforms; the banner has the URL
  }
}
