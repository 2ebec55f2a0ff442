// The built front end (ui/dist, made by `vite build`) read into memory once at start-up: a few
// hundred kilobytes, served without touching the disk per request and never outside that folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

export interface UiAsset {
  body: Buffer;
  contentType: string;
  /** Content-hashed file names never change content: cache for a year. */
  immutable: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Relative path (`index.html`, `assets/index-3f2a1c.js`) -> asset; empty when the UI is not built. */
export function loadUiAssets(distDir: string): Map<string, UiAsset> {
  const assets = new Map<string, UiAsset>();
  if (!existsSync(join(distDir, 'index.html'))) return assets;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) visit(path);
      else {
        const name = relative(distDir, path).split(sep).join('/');
        const type = CONTENT_TYPES[extname(entry)];
        if (!type) continue;
        assets.set(name, { body: readFileSync(path), contentType: type, immutable: name.startsWith('assets/') });
      }
    }
  };
  visit(distDir);
  return assets;
}
