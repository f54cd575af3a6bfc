import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('SIM_START', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradedesk-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replays the simulated market from the given instant, in real time', async () => {
    const config = loadConfig({ DATA_DIR: dir, SIM_START: '2026-06-29T10:30:00Z' });
    const first = config.simNow!();
    expect(first - Date.parse('2026-06-29T10:30:00Z')).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 60));
    expect(config.simNow!() - first).toBeGreaterThanOrEqual(50);
  });

  it('runs on the real clock when unset, and refuses a value that is not an instant', () => {
    expect(loadConfig({ DATA_DIR: dir }).simNow).toBeUndefined();
    expect(() => loadConfig({ DATA_DIR: dir, SIM_START: 'next tuesday' })).toThrow(
      /SIM_START must be an ISO 8601 instant/,
    );
  });
});
