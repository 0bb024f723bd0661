import path from 'node:path';
import { defineConfig } from 'vite';

// Two entries: the full app (index.html) and the embed (embed.html), which loads only
// the chat, so the JavaScript shipped to the embed route stays small.
const root = path.join(import.meta.dirname, 'src/client');
export default defineConfig({
  root,
  base: '/',
  build: {
    outDir: path.join(import.meta.dirname, 'dist/public'),
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      input: { app: path.join(root, 'index.html'), embed: path.join(root, 'embed.html') },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
