/** Opens the database, builds the app and listens: the service as one handle. */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { openService, type Service } from '../service/open-service';
import { buildApp } from '../http/app';
import { GracefulStop } from '../http/graceful-stop';

export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

export interface StartOptions {
  dbFile: string;
  host?: string;
  port?: number;
  staticDir?: string;
  version?: string;
  logger?: boolean;
}

export interface RunningService {
  url: string;
  port: number;
  app: FastifyInstance;
  service: Service;
  /**
   * Stops accepting, lets in-flight requests finish (cutting them after the grace period),
   * then closes the database.
   */
  close(options?: { graceMs?: number; onTimeout?: () => void }): Promise<void>;
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const service = openService(options.dbFile);
  try {
    const app = buildApp({
      service,
      staticDir: options.staticDir ?? DEFAULT_STATIC_DIR,
      version: options.version,
      logger: options.logger,
    });
    const host = options.host ?? '127.0.0.1';
    await app.listen({ host, port: options.port ?? 0 });
    const graceful = new GracefulStop(app.server);
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${urlHost}:${port}`,
      port,
      app,
      service,
      close: (closeOptions) =>
        (closing ??= graceful.stop(() => app.close().then(() => service.close()), closeOptions)),
    };
  } catch (err) {
    service.close();
    throw err;
  }
}
