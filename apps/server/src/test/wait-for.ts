type Falsy = undefined | null | false;

/**
 * Polls `probe` until it gives something truthy and returns that. Tests wait on real background
 * work (tick loops, sockets, reconnects), so they poll for its effect instead of sleeping a fixed
 * time; `timeoutMs` is the bound a test allows, and the error names `what` it waited for.
 */
export async function waitFor<T>(
  probe: () => T | Falsy | Promise<T | Falsy>,
  what: string,
  timeoutMs = 8000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
