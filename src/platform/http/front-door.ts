import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyServerFactory } from 'fastify';

/**
 * Answers a request before Fastify routes it, or says it will not (`false`: Fastify takes it,
 * as it would have). `route` hands the request on to Fastify after all, for an answer that
 * finds it cannot give itself before anything was written.
 */
export type FrontDoorAnswer = (
  request: IncomingMessage,
  response: ServerResponse,
  route: () => void,
) => boolean;

/** What Fastify decides of a request's client address: its `trustProxy` (app.ts). */
export type ProxyTrust = false | ((address: string, hop: number) => boolean);

/**
 * The HTTP server's own request listener, in front of Fastify's (its `serverFactory`): for the
 * hosted form's first page, the most asked-for URL (issue 24), answered again from what the
 * routed answer left behind (web/hosted/replays.ts) at a fraction of the routed cost. Everything
 * else, and everything after `close()` (the graceful close's answers carry `Connection: close`),
 * goes to Fastify untouched.
 */
export class FrontDoor {
  private readonly answers: FrontDoorAnswer[] = [];
  private closed = false;
  /** Requests taken here so far (a replay that fails before writing is handed on to the route). */
  answered = 0;

  constructor(private readonly trust: ProxyTrust) {}

  add(answer: FrontDoorAnswer): void {
    this.answers.push(answer);
  }

  /** From now on every request is Fastify's (the service is closing). */
  close(): void {
    this.closed = true;
  }

  /** Whether the service is closing: an answer begun before says `Connection: close` as the route's do. */
  get closing(): boolean {
    return this.closed;
  }

  /** The client's address as Fastify's `request.ip` tells it, under the same `trustProxy`. */
  clientAddress(request: IncomingMessage): string {
    if (this.trust === false) return request.socket.remoteAddress ?? '';
    const addresses = proxyAddr.all(request, this.trust);
    return addresses[addresses.length - 1] ?? '';
  }

  readonly serverFactory: FastifyServerFactory = (handler, options) => {
    const server = http.createServer((options.http ?? {}) as http.ServerOptions, (request, response) => {
      if (!this.closed) {
        const route = () => handler(request, response);
        for (const answer of this.answers)
          if (answer(request, response, route)) {
            this.answered++;
            return;
          }
      }
      handler(request, response);
    });
    // what Fastify does to the server it makes itself (fastify/lib/server.js), and not to a factory's
    const number = (name: string) =>
      typeof options[name] === 'number' ? (options[name] as number) : undefined;
    server.keepAliveTimeout = number('keepAliveTimeout') ?? server.keepAliveTimeout;
    server.requestTimeout = number('requestTimeout') ?? server.requestTimeout;
    server.setTimeout(number('connectionTimeout') ?? 0);
    const perSocket = number('maxRequestsPerSocket');
    if (perSocket !== undefined && perSocket > 0) server.maxRequestsPerSocket = perSocket;
    return server;
  };
}
