// `npm run data:check`: the consistency check (src/lib/consistency.ts) on the configured store
// (by default the SQLite file under DATA_DIR): every pair of prices that share a basis, and
// every price a post quotes, against the data of its date. `-- --model` adds the demo model's
// links (src/lib/demoRelations.ts: city-wise Mumbai over Mumbai ex-works, global-bazaar India
// over CIF Nhava Sheva …), for a store filled by `npm run seed`. Prints each finding; exits 1
// when there is any.
// Runs under plain Node 24 (type stripping): imports carry their .ts extensions.
import { checkConsistency } from '../src/lib/consistency.ts';
import { isoDateOf } from '../src/lib/dates.ts';
import { demoRelations } from '../src/lib/demoRelations.ts';
import { readConfig } from '../src/server/config/settings.ts';
import { readPriceLines } from '../src/server/priceLines.ts';
import { MAX_POST_PAGE, type Post } from '../src/server/store/posts.ts';
import { describeStore, openConfiguredStore, storeConfigFrom } from '../src/server/store/open.ts';

const withModel = process.argv.includes('--model');
process.env['METADATA_SERVER_DETECTION'] ??= 'none';
const config = storeConfigFrom(readConfig((name) => process.env[name]).store);
const store = await openConfiguredStore(config);
let findings: number;
try {
  const lines = await readPriceLines(store);
  // Every post, a page at a time.
  const posts: Post[] = [];
  for (let page: readonly Post[] = []; ; ) {
    page = (await store.listPosts({ limit: MAX_POST_PAGE, offset: posts.length })).posts;
    posts.push(...page);
    if (page.length < MAX_POST_PAGE) break;
  }
  const report = checkConsistency({
    lines,
    relations: withModel ? demoRelations() : [],
    posts: posts.filter((p) => p.deletedAt === null).map((p) => ({ id: p.id, date: isoDateOf(new Date(p.publishAt ?? p.createdAt)), body: p.body })),
  });
  for (const finding of report.findings) console.log(`[${finding.kind}] ${finding.message}`);
  console.log(
    `[data:check] ${describeStore(config)}: ${lines.length} price lines, ${report.pairs} pairs on one basis (${report.pairDates} dates compared), ` +
      `${withModel ? `${report.relationValues} values against the demo model's links, ` : ''}${report.quotes} prices quoted in ${posts.length} posts: ` +
      `${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}`,
  );
  findings = report.findings.length;
} finally {
  await store.close();
}
process.exitCode = findings > 0 ? 1 : 0;
