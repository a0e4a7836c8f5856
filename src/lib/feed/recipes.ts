/**
 * The recipes of /developers: the data feed from Excel (Power Query), Google Sheets
 * (IMPORTDATA with a URL key), Python (requests) and curl. Each names the request it makes
 * (`path`, with the key sent as `auth`), so a test can make exactly those requests and check
 * the answers (tests/integration/feedDocs.test.ts).
 */
export interface Recipe {
  readonly id: 'excel' | 'sheets' | 'python' | 'curl';
  readonly title: string;
  /** What to do, step by step, before the code. */
  readonly steps: readonly string[];
  readonly language: string;
  readonly code: string;
  /** The request the code makes: the path and query after the origin, and where the key goes. */
  readonly requests: readonly { readonly path: string; readonly auth: 'header' | 'url'; readonly accept?: string }[];
}

/** Stands for the reader's own key in the recipes. */
export const KEY_PLACEHOLDER = 'pik_YOUR_KEY';

const LATEST = '/api/v1/latest.csv?ids=feedstock.naphtha.japan,fx.usdinr';
const SERIES = '/api/v1/series/historical.ppRaffia.mumbai';

export function recipes(origin: string): Recipe[] {
  return [
    {
      id: 'excel',
      title: 'Excel (Power Query)',
      steps: [
        'Data → Get Data → From Other Sources → From Web, then choose Advanced.',
        `URL parts: ${origin}${LATEST}`,
        `HTTP request header parameters: Authorization, with the value Bearer ${KEY_PLACEHOLDER}. When Excel asks how to connect, choose Anonymous: the key is in the header.`,
        'Or paste this query in Power Query\'s Advanced Editor (Home → Advanced Editor). Refresh with Data → Refresh All.',
      ],
      language: 'powerquery',
      code: [
        'let',
        `    Source = Csv.Document(Web.Contents("${origin}/api/v1/latest.csv", [Query = [ids = "feedstock.naphtha.japan,fx.usdinr"], Headers = [Authorization = "Bearer ${KEY_PLACEHOLDER}"]]), [Delimiter = ",", Encoding = 65001, QuoteStyle = QuoteStyle.Csv]),`,
        '    Promoted = Table.PromoteHeaders(Source, [PromoteAllScalars = true]),',
        '    Typed = Table.TransformColumnTypes(Promoted, {{"date", type date}, {"value", type number}, {"previous_date", type date}, {"previous_value", type number}, {"change", type number}, {"change_pct", type number}}, "en-US")',
        'in',
        '    Typed',
      ].join('\n'),
      requests: [{ path: LATEST, auth: 'header' }],
    },
    {
      id: 'sheets',
      title: 'Google Sheets (IMPORTDATA)',
      steps: [
        'IMPORTDATA cannot send headers: make a key with "Allow this key in a URL" ticked, for this sheet only.',
        'Put the formula in a cell; Sheets refreshes it about every hour. The third argument reads the numbers with "." decimals whatever the sheet\'s locale.',
        'Anyone who can see the formula can use the key: share the sheet with care, and revoke the key if it leaks.',
      ],
      language: 'text',
      code: `=IMPORTDATA("${origin}${LATEST}&key=${KEY_PLACEHOLDER}", ",", "en_US")`,
      requests: [{ path: LATEST, auth: 'url' }],
    },
    {
      id: 'python',
      title: 'Python (requests)',
      steps: ['Keep the key out of the code: set it in the environment as POLYINDEX_KEY.'],
      language: 'python',
      code: [
        'import os',
        'import requests',
        '',
        `BASE = "${origin}/api/v1"`,
        'session = requests.Session()',
        'session.headers["Authorization"] = f"Bearer {os.environ[\'POLYINDEX_KEY\']}"',
        '',
        'answer = session.get(f"{BASE}/series/historical.ppRaffia.mumbai", params={"from": "2026-01-01", "unit": "inr_kg"}, timeout=30)',
        'answer.raise_for_status()',
        'series = answer.json()',
        'for point in series["points"]:',
        '    print(point["date"], point["value"], series["unit"])',
        'print("left this minute:", answer.headers["X-RateLimit-Remaining"])',
      ].join('\n'),
      requests: [{ path: `${SERIES}?from=2026-01-01&unit=inr_kg`, auth: 'header' }],
    },
    {
      id: 'curl',
      title: 'curl',
      steps: ['JSON by default; CSV with the Accept header (or .csv at the end of the path).'],
      language: 'sh',
      code: [
        `curl -H "Authorization: Bearer $POLYINDEX_KEY" "${origin}/api/v1/catalog"`,
        `curl -H "Authorization: Bearer $POLYINDEX_KEY" -H "Accept: text/csv" "${origin}${SERIES}?from=2026-01-01"`,
      ].join('\n'),
      requests: [
        { path: '/api/v1/catalog', auth: 'header' },
        { path: `${SERIES}?from=2026-01-01`, auth: 'header', accept: 'text/csv' },
      ],
    },
  ];
}
