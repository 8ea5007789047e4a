/**
 * The shared HTTP client against real servers on loopback: an answer past the cap (a server
 * that never stops sending) is refused with the cap named while memory stays bounded; the
 * deadline; the AbortSignal; connections kept open and used again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, HttpFailure } from '../../jobs/http-client';

const servers: http.Server[] = [];
const clients: HttpClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: http.RequestListener): Promise<{ url: (path?: string) => URL; server: http.Server }> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: (path = '/') => new URL(`http://127.0.0.1:${port}${path}`) };
}

function client(options: ConstructorParameters<typeof HttpClient>[0]): HttpClient {
  const made = new HttpClient(options);
  clients.push(made);
  return made;
}

async function failure(promise: Promise<unknown>): Promise<HttpFailure> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof HttpFailure) return err;
    throw err;
  }
  throw new Error('the request passed');
}

describe('the HTTP client', () => {
  it('refuses an answer that never ends once it passes the cap, naming the cap, with memory bounded', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sentBytes = 0;
    let serverSawClose!: () => void;
    const closed = new Promise<void>((resolve) => (serverSawClose = resolve));
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      // Writes for as long as the client reads: a body with no end and no content-length.
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sentBytes += chunk.length;
        sentBytes += chunk.length;
      };
      res.on('drain', pump);
      res.on('close', serverSawClose);
      pump();
    });
    const cap = 4 * 1024 * 1024;
    const buffersBefore = process.memoryUsage().arrayBuffers;
    const err = await failure(client({ timeoutMs: 60_000, maxAnswerBytes: cap }).request({ url: url(), method: 'GET' }));
    expect(err.kind).toBe('too-large');
    expect(err.message).toContain('4 MiB');
    expect(err.message).toContain('maxAnswerBytes');
    expect(err.brokeOff).toBe(true);
    await closed;
    // The client read a little past the cap and let go: the server's writes stopped there, and
    // what the client holds never grew with the answer.
    expect(sentBytes).toBeLessThan(cap + 16 * 1024 * 1024);
    expect(process.memoryUsage().arrayBuffers - buffersBefore).toBeLessThan(cap + 32 * 1024 * 1024);
  });

  it('refuses at once an answer whose declared length passes the cap', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      res.write('x');
    });
    const err = await failure(client({ timeoutMs: 60_000, maxAnswerBytes: 1024 }).request({ url: url(), method: 'GET' }));
    expect(err.kind).toBe('too-large');
    expect(err.message).toMatch(/larger than the 1 KiB an answer may have \(maxAnswerBytes\): it says it is 10485760 bytes/);
  });

  it('reads an answer within the cap whole', async () => {
    const { url } = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => res.writeHead(201, { 'x-seen': req.headers['content-length'] ?? '' }).end(`${req.method} ${body}`));
    });
    const answer = await client({ timeoutMs: 60_000, maxAnswerBytes: 1024 }).request({ url: url(), method: 'PATCH', body: 'héllo' });
    expect(answer.status).toBe(201);
    expect(answer.headers['x-seen']).toBe('6');
    expect(answer.body.toString()).toBe('PATCH héllo');
  });

  it('fails an exchange past its deadline, and one its signal stops', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('begun');
    });
    const slow = await failure(client({ timeoutMs: 200 }).request({ url: url(), method: 'GET' }));
    expect(slow).toMatchObject({ kind: 'timeout', message: 'no answer within 0.2 s', brokeOff: true });

    const abort = new AbortController();
    const stopped = failure(client({ timeoutMs: 60_000 }).request({ url: url(), method: 'GET', signal: abort.signal }));
    abort.abort();
    expect(await stopped).toMatchObject({ kind: 'aborted' });
    const already = await failure(client({ timeoutMs: 60_000 }).request({ url: url(), method: 'GET', signal: AbortSignal.abort() }));
    expect(already.kind).toBe('aborted');
  });

  it('keeps its connection open for the next requests', async () => {
    const { url, server } = await serve((_req, res) => res.end('ok'));
    let connections = 0;
    server.on('connection', () => connections++);
    const http = client({ timeoutMs: 60_000, maxSockets: 1 });
    for (let i = 0; i < 5; i++) expect((await http.request({ url: url(`/${i}`), method: 'GET' })).body.toString()).toBe('ok');
    await Promise.all([1, 2, 3].map(() => http.request({ url: url(), method: 'GET', discardBody: true })));
    expect(connections).toBe(1);
  });

  it('sends nothing to a connection its vetting refuses', async () => {
    let requests = 0;
    const { url } = await serve((_req, res) => {
      requests++;
      res.end();
    });
    const refused = client({ timeoutMs: 60_000, vetSocket: (socket) => new Error(`not to ${socket.remoteAddress}`) });
    const err = await failure(refused.request({ url: url(), method: 'POST', body: 'secret' }));
    expect(err).toMatchObject({ kind: 'network', message: 'not to 127.0.0.1' });
    expect(requests).toBe(0);
  });
});
