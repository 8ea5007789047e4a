/**
 * The remote as a cycle sees it: reads retried a few times on transient failures
 * (read-retry.ts), the PATCH sent once (push-queue.ts decides whether to send it again). The waits
 * between attempts are the worker's, so that stopping it ends them at once.
 */
import type { RefusedReport } from './remote-checks';
import type { LabelReportPatch } from '../schema/report';
import type { RemoteReport } from '../schema/sync';
import { RemoteFailure, type Remote, type RemoteClient, type RemotePage } from './remote-client';

/**
 * After the `attempt`-th attempt of a request failed with `failure`: waits before the next
 * attempt and resolves true, or resolves false when the failure goes to the cycle. Rejects
 * with `Stopped` when the worker stops meanwhile.
 */
export type RetryWait = (attempt: number, failure: RemoteFailure) => Promise<boolean>;

export class RetryingRemote implements Remote {
  constructor(
    private readonly client: RemoteClient,
    private readonly retryWait: RetryWait,
  ) {}

  session(): Promise<{ companyId: string; companyName: string } | null> {
    return this.read(() => this.client.session());
  }

  list(query: Record<string, string>, options?: { wholeReports?: boolean }): Promise<RemotePage> {
    return this.read(() => this.client.list(query, options));
  }

  retrieve(id: string): Promise<RemoteReport | RefusedReport | null> {
    return this.read(() => this.client.retrieve(id));
  }

  /** One retrieve, not asked again here: the retrieve pool decides whether and when (retrieve-pool.ts). */
  retrieveOnce(id: string): Promise<RemoteReport | RefusedReport | null> {
    return this.client.retrieve(id);
  }

  patch(id: string, body: LabelReportPatch): Promise<RemoteReport | null> {
    return this.client.patch(id, body);
  }

  private async read<T>(request: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request();
      } catch (err) {
        if (!(err instanceof RemoteFailure) || !(await this.retryWait(attempt, err))) throw err;
      }
    }
  }
}
