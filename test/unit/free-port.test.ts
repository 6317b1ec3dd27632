/** infra/local/dynamodb-local.ts `freePort`: below the ports the system hands out by itself, and free to listen on. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';

const rangeStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

describe('freePort', () => {
  it('never gives a port a listen(0) or an outgoing connection could be handed meanwhile, and it can be listened on', async () => {
    for (let n = 0; n < 20; n++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(rangeStart);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
