import { type AddressInfo, type Server, type Socket, createConnection, createServer } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 that a test can cut (every connection dropped, new
 * ones refused) and restore (listening again on the same port), to put a
 * fault between the service and Redis or the database.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private silent = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  get url(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Drops every connection and stops accepting new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Drops every connection, then accepts new ones but forwards nothing: the
   * peer neither refuses nor answers (a hung network or server).
   */
  async blackhole(): Promise<void> {
    this.silent = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (!this.server) await this.listen(this.port);
  }

  /** Accepts and forwards connections again, on the same port. */
  async restore(): Promise<void> {
    if (this.silent) {
      this.silent = false;
      for (const socket of this.sockets) socket.destroy();
      this.sockets.clear();
    }
    if (!this.server) await this.listen(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      if (this.silent) {
        this.sockets.add(client);
        client.on('error', () => client.destroy()).on('close', () => this.sockets.delete(client));
        client.resume();
        return;
      }
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      this.sockets.add(client);
      this.sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
}
