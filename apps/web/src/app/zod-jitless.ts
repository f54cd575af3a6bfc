import { z } from 'zod';

/**
 * zod compiles fast parsers with `new Function` after probing whether eval is allowed; under the
 * app's CSP (no 'unsafe-eval') the probe itself is a CSP violation. Imported first by main.tsx, before
 * any schema is built, because zod reads this setting when each object schema is created.
 */
z.config({ jitless: true });
