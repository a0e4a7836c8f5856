// A server for `npm run bench`, in its own process so the load generator does not share its
// event loop. Modes: `bare` answers the endpoint's bytes from memory (the ceiling); `warm` and
// `cold` call the endpoint's own handler (src/server/api/feedstock.ts) with the body cache on
// or off. Prints `listening <port>` when ready.
//   node scripts/lib/bench-server.mjs <bare|warm|cold> <path> <dataDir>
import { createServer } from 'node:http';
import { feedstockResponse } from '../../src/server/api/feedstock.ts';
import { createBodyCache } from '../../src/server/http/bodyCache.ts';
import { openStore, sqliteUrlFor } from '../../src/server/store/index.ts';

const [mode, path, dataDir] = process.argv.slice(2);
const HOST = '127.0.0.1';
const store = await openStore({ url: sqliteUrlFor(String(dataDir)) });
const cache = createBodyCache(mode === 'cold' ? { max: 0 } : {});
const origin = `http://${HOST}`;

/** @param {URL} url @param {Record<string, string>} headers */
const answer = (url, headers) => feedstockResponse(store, new Request(url, { headers }), url, cache);

const reference = await answer(new URL(String(path), origin), {});
const referenceBytes = Buffer.from(await reference.arrayBuffer());
const referenceHeaders = Object.fromEntries(reference.headers);

const server = createServer((req, res) => {
  if (mode === 'bare') {
    res.writeHead(200, { ...referenceHeaders, 'Content-Length': referenceBytes.length });
    res.end(referenceBytes);
    return;
  }
  const url = new URL(req.url ?? '/', origin);
  answer(url, /** @type {Record<string, string>} */ (req.headers))
    .then(async (response) => {
      const out = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), 'Content-Length': out.length });
      res.end(out);
    })
    .catch(() => {
      res.writeHead(500);
      res.end();
    });
});
server.listen(0, HOST, () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
const stop = () => server.close(() => store.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
