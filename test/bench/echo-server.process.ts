// The benchmarks' fake provider API in its own process, so that neither the engine side nor the
// in-process baseline shares an event loop with the server it reads from.
import { startEchoServer } from '../fakes/plugin-echo/echo-server.ts';

const server = await startEchoServer({ playlistSize: Number(process.argv[2] ?? '10000'), pageLatencyMs: Number(process.argv[3] ?? '0') });
process.send?.({ port: server.port });
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
