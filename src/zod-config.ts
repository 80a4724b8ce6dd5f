// Imported first by every entry (main.tsx, the import worker). ES imports are evaluated before
// the importing module's body, so a `z.config` call in main.tsx would run after every schema of
// the app was built — and zod's object schemas probe `new Function('')` when they are built
// unless `jitless` is already set. That probe is a CSP violation under `script-src 'self'`.
import { z } from 'zod';

z.config({ jitless: true });
