import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { spawnGateway } from '../helpers/gateway.js';

const sh = promisify(execFile);

describe('npm start: the gateway with the embedded sandbox', () => {
  it('starts with no upstream configured and prints a curl command that works as printed', async () => {
    const gw = await spawnGateway([]);
    try {
      const [, curl] = await new Promise<RegExpMatchArray>((resolve, reject) => {
        const deadline = Date.now() + 10_000;
        const poll = () => {
          const m = gw.stderr().match(/^\s+(curl .+)$/m);
          if (m) resolve(m);
          else if (Date.now() > deadline) reject(new Error(`no curl line in: ${gw.stderr()}`));
          else setTimeout(poll, 50);
        };
        poll();
      });
      expect(gw.stderr()).toContain('the embedded sandbox');
      const { stdout } = await sh('sh', ['-c', curl!]);
      expect(JSON.parse(stdout)).toMatchObject({ internalOrderId: 'demo-1', amount: 1000, currency: 'AUD', status: 'created', merchantId: 'mcht_solo' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
