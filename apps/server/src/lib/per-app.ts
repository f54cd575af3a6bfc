import type { AppContext } from '../context';

/**
 * One instance per app (per AppContext), made on first use: the routes, syncs and jobs of one app
 * share it, while a second app in the same process (tests, restarts) gets its own.
 */
export function perApp<T>(create: (ctx: AppContext) => T): (ctx: AppContext) => T {
  const instances = new WeakMap<AppContext, T>();
  return (ctx) => {
    let instance = instances.get(ctx);
    if (instance === undefined) {
      instance = create(ctx);
      instances.set(ctx, instance);
    }
    return instance;
  };
}
