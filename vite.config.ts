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
