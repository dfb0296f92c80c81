import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Fastify's `childLoggerFactory`: each request's logger (`request.log`), made by pino only when
 * the request logs something at a level that is written. Fastify makes a child of the service's
 * logger for every request, binding its id; pino's child serialises its bindings at once. Most
 * requests log nothing at the levels a service runs at (`warn`: no "incoming request" lines),
 * and those children cost ~3 % of the submit path's CPU (`--cpu-prof` under `npm run bench`:
 * `createChildLogger`, `asChindings`, `child`). A line that is written is the same as before: the
 * same child, made at the first line.
 */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger, bindings, options);

class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  // methods of the prototype, not a closure each per request (nothing calls them unbound)
  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  private log(level: Level, args: unknown[]): void {
    // a route's own level (`logLevel`) is the child's: judged by the child itself
    if (this.made === undefined && this.options.level === undefined && !isEnabled(this.parent, level)) return;
    (this.logger()[level] as (...args: unknown[]) => void)(...args);
  }

  private logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
}

/** pino's own test when the logger has one (a test's logger may not): otherwise, written. */
function isEnabled(logger: FastifyBaseLogger, level: Level): boolean {
  const test = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return typeof test === 'function' ? test.call(logger, level) : true;
}
