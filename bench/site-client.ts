/** One kept-alive connection per server, with the site's key, as a local tool or the app uses. */
import http from 'node:http';
import { SITE } from './site-database';

export class SiteClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  get(url: string): Promise<{ status: number; body: Buffer }> {
    return this.request(url, 'GET');
  }

  /** A body is sent as JSON. */
  request(url: string, method: string, body?: string | Buffer): Promise<{ status: number; body: Buffer }> {
    const headers: http.OutgoingHttpHeaders = { 'x-api-key': SITE.key };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method, agent: this.agent, headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
