// Vite builds the console; Vitest runs unit tests in Node (*.test.ts: contract, spreadsheet,
// sandbox) and component tests in jsdom (*.test.tsx). The sandbox is not bundled: tsx runs it.
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    target: 'es2022',
    sourcemap: true,
    // SheetJS is its own lazy chunk (~490 kB); the warning would only ever name it.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // zod and the module that makes it jitless share one chunk, so the config runs before any
        // schema of a lazy chunk is built (the CSP forbids the eval zod would otherwise probe).
        codeSplitting: { groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]zod-config/ }] },
      },
    },
  },
  worker: { format: 'es' },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/test-setup-dom.ts'],
        },
      },
    ],
  },
});
