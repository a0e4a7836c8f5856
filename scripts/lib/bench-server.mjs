// The ceiling for `npm run bench`: a bare node:http server, in its own process, answering every
// request with the same bytes and headers a real endpoint answered (read from a JSON file:
// `{ status, headers, body }`, the body base64). Prints `listening <port>` when ready.
//   node scripts/lib/bench-server.mjs <answer.json>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answer = JSON.parse(readFileSync(String(process.argv[2]), 'utf8'));
const body = Buffer.from(answer.body, 'base64');
const headers = { ...answer.headers, 'content-length': String(body.length) };

const server = createServer((_req, res) => {
  res.writeHead(answer.status, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
