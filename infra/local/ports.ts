/** Ports and addresses for `npm start` (main.ts): listening, whether a port is taken, a host as a URL writes it. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';

export function listen(target: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolveAddress, reject) => {
    target.once('error', reject);
    target.listen(port, host, () => {
      target.off('error', reject);
      resolveAddress(target.address() as AddressInfo);
    });
  });
}

/** True when something accepts TCP connections on the port. */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const done = (answer: boolean) => {
      socket.destroy();
      resolveAnswer(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The host part of a URL that reaches `host` (a wildcard address is reached as localhost). */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
