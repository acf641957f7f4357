/** Opens a file in the user's browser with the platform's opener. */
import { spawn } from 'node:child_process';

export async function openInBrowser(path: string): Promise<void> {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  // On Linux without a display (a server, ssh, a container) xdg-open has nowhere to open it, silently.
  if (opener === 'xdg-open' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    process.stderr.write(`no display to open it on (neither DISPLAY nor WAYLAND_DISPLAY is set); open ${path} yourself\n`);
    return;
  }
  await new Promise<void>((resolve) => {
    const child = spawn(opener, [path], { stdio: 'ignore', detached: true });
    child.on('error', () => {
      process.stderr.write(`could not start ${opener}; open ${path} yourself\n`);
      resolve();
    });
    child.on('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
